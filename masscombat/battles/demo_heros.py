"""The HÉROS demo battle (none yet)."""


def load(campaign, gm, players):
    return None
