"""Telling players what happened while their tab was closed: Web Push, e-mail and a campaign's Discord.

The app listens to the battles' events (:data:`masscombat.battles.live.committed`)
and sends nothing from the request that made the change (:mod:`.dispatch`).
"""
