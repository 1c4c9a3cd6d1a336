"""The D&D 5e demo battle (none yet)."""


def load(campaign, gm, players):
    return None
