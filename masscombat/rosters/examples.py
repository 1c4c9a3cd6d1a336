"""The specs' worked-example armies and heroes, per ruleset, in the engines' input format.

The demo data loads them so that a newcomer finds ready armies to play with;
the tests build them through the API and check the numbers the specs give.
Sources: SYNAPSE S9.3 (Hannibal) and E14; JdRWiki S9.0 F1, F2, F4; 7th Sea
S9.1, S9.2; HÉROS S9.2, S9.3; D&D 5e S9.2, S9.3.
"""

SYNAPSE_ARMIES = {
    "Ost d'Hannibal": {
        "name": "Ost d'Hannibal",
        "commander": {"name": "Hannibal", "mental_mod": 3, "presence_mod": 2, "combat": 5, "art_of_war": 5,
                      "diplomacy": 1},
        "units": [
            {"id": "men_at_arms", "name": "Hommes d'armes", "unit_type": "human_infantry", "headcount": 150,
             "weapon_damage": 4, "combat_base": 8, "armour": 2, "break_pct_override": 50},
            {"id": "peasants", "name": "Paysans", "unit_type": "human_infantry", "headcount": 250,
             "weapon_damage": 2, "combat_base": 2},
        ],
    },
    "Armée féodale (E14)": {
        "name": "Armée féodale",
        "units": [
            {"id": "cavalry", "name": "Cavaliers", "unit_type": "cavalry", "headcount": 100, "weapon_damage": 5,
             "armour": 3, "combat_base": 5},
            {"id": "infantry", "name": "Fantassins", "unit_type": "human_infantry", "headcount": 300,
             "weapon_damage": 4, "armour": 3, "combat_base": 5},
            {"id": "crossbowmen", "name": "Arbalétriers", "unit_type": "archers_crossbowmen", "headcount": 50,
             "weapon_damage": 3, "rate_of_fire": "1/2", "weapon_range": "long", "armour": 1, "combat_base": 5},
            {"id": "catapults", "name": "Catapultes", "unit_type": "artillery", "pieces": 4, "headcount": 20,
             "weapon_damage": 25, "rate_of_fire": "1/2", "weapon_range": "long", "combat_base": 5},
        ],
    },
}

SYNAPSE_HEROES = {
    "Maharbal": {"id": "maharbal", "name": "Maharbal", "unit_id": "men_at_arms", "armour": 2},
}

JDRWIKI_ARMIES = {
    "Ost de Loreval": {
        "id": "north", "name": "Ost de Loreval", "side": "a",
        "commander": {"name": "Aldric", "level": 6, "is_pc": True, "strategist_rank": 2, "force_combat_expertise": 2,
                      "deft_combat_expertise": 0, "war_arts": 1, "int": 14, "wis": 12, "cha": 16,
                      "heroism_points": 1},
        "aides": [{"name": "Berthe", "strategist_rank": 0, "force_combat_expertise": 1, "deft_combat_expertise": 0,
                   "war_arts": 0}],
        "criteria": {"hierarchy": 1, "communication": 0, "logistics": 1, "cohesion": 1, "equipment": 2,
                     "training": 1, "motivation": 0, "mobility": 0, "diversity": -1, "melee_means": 2,
                     "ranged_means": 0, "defense_means": 1, "knowledge": 0, "culture": 0, "history": -1},
        "talents": ["brute"],
        "units": [{"name": "fantassins", "value": 1, "count": 600, "speed": 1},
                  {"name": "cavaliers", "value": 3, "count": 100, "speed": 2}],
        "has_magic": False,
    },
    "Armée jann": {
        "id": "south", "name": "Armée jann", "side": "b",
        "commander": {"name": "Omar", "level": 10, "is_pc": False, "strategist_rank": 0,
                      "force_combat_expertise": 0, "deft_combat_expertise": 0, "war_arts": 1, "int": 12, "wis": 10,
                      "cha": 14, "heroism_points": 1},
        "aides": [],
        "criteria": {"hierarchy": 2, "communication": -1, "logistics": 0, "cohesion": 1, "equipment": 1,
                     "training": 0, "motivation": 1, "mobility": -1, "diversity": 0, "melee_means": 1,
                     "ranged_means": -1, "defense_means": 2, "knowledge": -1, "culture": 1, "history": 0},
        "talents": ["iron_hand"],
        "units": [{"name": "guerriers janns", "value": 2, "count": 300, "speed": 1},
                  {"name": "archers", "value": 1, "count": 200, "speed": 1}],
        "has_magic": False,
    },
}

JDRWIKI_HEROES = {
    "Ildar Adeldiral": {"id": "ildar", "army_id": "north", "corps_id": "n1", "name": "Ildar Adeldiral", "level": 20,
                        "is_pc": False, "race_power": 0, "is_commander": False,
                        "bonuses": {"deft_attack": 4, "vigor": 2, "sapping": 2, "perception": 2, "damage": 3},
                        "heroism_points": 1},
    "Le Bey Kavelec": {"id": "kavelec", "army_id": "south", "corps_id": "s1", "name": "Le Bey Kavelec", "level": 8,
                       "is_pc": False, "race_power": 5, "is_commander": False,
                       "bonuses": {"force_attack": 2, "deft_attack": -1, "parry": 2, "vigor": 2, "will": 2,
                                   "morale": 2, "maneuver": -1, "sapping": -1}, "heroism_points": 1},
}

SEVENTH_SEA_ARMIES = {
    "Montaigne": {"name": "Montaigne", "troops": 4000, "terrain": {"high_ground": True},
                  "general": {"wits": 3, "strategy": 2, "incitation": 1}, "quartermaster": {"wits": 2, "logistics": 2}},
    "Castille": {"name": "Castille", "troops": 1200, "terrain": {"difficult_terrain": True, "crossing_water": True},
                 "general": {"wits": 4, "strategy": 3}},
}

SEVENTH_SEA_HEROES = {
    "Lucie": {"id": "lucie", "name": "Lucie", "side": "a", "wits": 2, "tactics": 3, "leadership": 2, "brawn": 3,
              "resolve": 2, "unit_type": "artillery"},
}

def _heros_unit(uid, name, corps, code, foot, mounted, move, **extra) -> dict:
    return {"id": uid, "name": name, "corps_id": corps, "troop_type": code, "factor_vs_foot": foot,
            "factor_vs_mounted": mounted, "move": move, **extra}


# S9.3's army as it stands at the start of a battle: every unit active (the lurker waits in its pool,
# S7.9), every character fit, no captive yet.  Its combat factors and moves are the spec's where it
# gives them (Kn, Sp, Wb, Ps: S9.6, S9.12); a god's and a lurker's are left by the source to the army
# list (S7.10, S7.11): these are the engine tests' values, for the GM to change.
HEROS_ARMIES = {
    "Armée rouge": {
        "side_id": "red",
        "corps": [{"id": "c1", "name": "Bataille du roi", "kind": "cinc", "general_id": "g1"},
                  {"id": "c2", "name": "Bande des collines", "kind": "sub", "general_id": "g2"}],
        "units": [_heros_unit("u1", "Chevaliers rouges", "c1", "Kn", 3, 4, 4, ep=2),
                  _heros_unit("u2", "Lances du roi", "c1", "Sp", 4, 4, 3),
                  _heros_unit("u3", "Dieu de la guerre", "c1", "Gd", 6, 6, 5),
                  _heros_unit("u4", "Barbares 1", "c2", "Wb", 3, 2, 3, regular=False, impetuous=True),
                  _heros_unit("u5", "Barbares 2", "c2", "Wb", 3, 2, 3, regular=False, impetuous=True),
                  _heros_unit("u6", "Frondeurs", "c2", "Ps", 2, 2, 4, regular=False, range=2, **{"class": "I"}),
                  _heros_unit("l1", "Rôdeur des collines", "c2", "Lu", 3, 3, 0, status="pool")],
        "characters": [{"id": "g1", "name": "Roi rouge", "corps_id": "c1", "role": "cinc"},
                       {"id": "g2", "name": "Chef des collines", "corps_id": "c2", "role": "sub_general"},
                       {"id": "ch1", "name": "Champion du roi", "corps_id": "c2", "role": "champion"}],
    },
}

# S9.3's example is that army later in a battle: what changed since its start, for the tests of S9.3's numbers.
HEROS_S93_LATER = {
    "units": {"u1": {"status": "destroyed"}},
    "characters": {"g2": {"wound_state": "unconscious"}, "ch1": {"status": "dead"}},
    "captives_held": [{"character_id": "e9", "role": "sub_general"}],
}

HEROS_HEROES = {
    "Grundi": {"id": "grundi", "role": "champion", "combat_bonus": 3, "personal_pa": 2, "dwarf": True,
               "wound_state": "light", "wound_malus": 1},
}

_ORC = {"name": "Orc", "size": "medium", "ac": 13, "hp_max": 15, "speed_m": 9,
        "abilities": {"str": 16, "dex": 12, "con": 16, "int": 7, "wis": 11, "cha": 10},
        "attacks": [{"name": "greataxe", "kind": "melee", "to_hit": 5,
                     "damage": [{"dice": "1d12+3", "type": "slashing"}]}]}
_OGRE = {"name": "Ogre", "size": "large", "ac": 11, "hp_max": 59, "speed_m": 12,
         "abilities": {"str": 19, "dex": 8, "con": 16, "int": 5, "wis": 7, "cha": 7},
         "attacks": [{"name": "greatclub", "kind": "melee", "to_hit": 6,
                      "damage": [{"dice": "2d8+4", "type": "bludgeoning"}]}]}
_WAR_CHIEF = {"name": "Orc war chief", "size": "medium", "ac": 16, "hp_max": 93, "speed_m": 9,
              "abilities": {"str": 18, "dex": 12, "con": 18, "int": 11, "wis": 11, "cha": 16}, "cha_check_bonus": 5,
              "attacks": [{"name": "greataxe", "kind": "melee", "to_hit": 6,
                           "damage": [{"dice": "1d12+4", "type": "slashing"}]}]}

def _horde(stands: list[dict]) -> dict:
    return {
        "name": "Horde orque",
        "profiles": {"orc": _ORC, "ogre": _OGRE, "war_chief": _WAR_CHIEF},
        "units": {
            "u1": {"name": "Régiment orque", "type": "regiment", "configuration": "defense", "stands": stands,
                   "attached_solos": [{"id": "h1", "profile": "war_chief"}], "commander": "h1"},
        },
    }


# The horde after a first skirmish (a wounded orc, one eliminated): the demo's, whose losses a battle carries on.
DND5E_ARMIES = {
    "Horde orque": _horde([{"id": "s1", "profile": "orc"}, {"id": "s2", "profile": "orc", "hp": 6},
                           {"id": "s3", "profile": "orc", "hp": 0, "status": "eliminated"},
                           {"id": "s4", "profile": "ogre"}]),
}

# What a GM starts from: the same horde at the start of a battle, every stand fresh.
STARTING_ARMIES = {
    "dnd5e": {"Horde orque": _horde([{"id": "s1", "profile": "orc"}, {"id": "s2", "profile": "orc"},
                                     {"id": "s3", "profile": "orc"}, {"id": "s4", "profile": "ogre"}])},
}

DND5E_HEROES = {
    "Chef de guerre orque": _WAR_CHIEF,
}

ARMIES = {
    "synapse": SYNAPSE_ARMIES,
    "jdrwiki": JDRWIKI_ARMIES,
    "seventh_sea": SEVENTH_SEA_ARMIES,
    "heros": HEROS_ARMIES,
    "dnd5e": DND5E_ARMIES,
}

HEROES = {
    "synapse": SYNAPSE_HEROES,
    "jdrwiki": JDRWIKI_HEROES,
    "seventh_sea": SEVENTH_SEA_HEROES,
    "heros": HEROS_HEROES,
    "dnd5e": DND5E_HEROES,
}


def starting(slug: str, name: str) -> dict:
    """A worked-example army as a template offers it: at the start of a battle."""
    return STARTING_ARMIES.get(slug, {}).get(name) or ARMIES[slug][name]
