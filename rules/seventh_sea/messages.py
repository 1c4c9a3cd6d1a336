"""Every log message of the engine, in English and French, by key (S9.0.1).

The engine writes a log step with :func:`say`, which takes the English
template from here: the text a CLI prints and the templates the web layer
renders in the reader's language can never disagree.  Placeholders are named
as the step's params.
"""

from __future__ import annotations

from typing import Any

from rules.explain import Log

MESSAGES: dict[str, dict[str, str]] = {
    "input.default": {
        "en": "{field} not given: {value} used.",
        "fr": "{field} non fourni : {value} retenu.",
    },
    "roll.keep": {
        "en": "{name}: {pool} rolled {dice}, kept {kept} = {total}.",
        "fr": "{name} : {pool} lancés {dice}, gardés {kept} = {total}.",
    },
    "prep.free_raises": {
        "en": "Side {side}: logistics {logistics_total}, incitation {incitation_total}: {free_raises} free raise(s).",
        "fr": "Camp {side} : Logistique {logistics_total}, Galvaniser {incitation_total} : "
              "{free_raises} augmentation(s) gratuite(s).",
    },
    "prep.given": {
        "en": "Side {side}: {free_raises} free raise(s) given by the GM.",
        "fr": "Camp {side} : {free_raises} augmentation(s) gratuite(s) fixée(s) par le MJ.",
    },
    "battle.attacker": {
        "en": "Side {attacker} started the battle and attacks in round 1.",
        "fr": "Le camp {attacker} a engagé la bataille : il est attaquant au premier tour.",
    },
    "hero.status": {
        "en": "{hero_id}: status {status}.",
        "fr": "{hero_id} : état {status}.",
    },
    "general.component": {
        "en": "Side {side}: {component} {value:+d}.",
        "fr": "Camp {side} : {component} {value:+d}.",
    },
    "general.strategy": {
        "en": "Attacker {attacker}: {attacker_strategy} against {defender_strategy} gives {value:+d}.",
        "fr": "Attaquant {attacker} : {attacker_strategy} contre {defender_strategy} donne {value:+d} "
              "(tactique militaire).",
    },
    "general.numbers": {
        "en": "Side {side}: effective strength {effective_strength} against {other_effective_strength}, "
              "ratio {ratio}, modifier {value:+d}.",
        "fr": "Camp {side} : effectif compté {effective_strength} contre {other_effective_strength}, "
              "rapport {ratio}, avantage numérique {value:+d}.",
    },
    "general.total": {
        "en": "Side {side}: total {total}.",
        "fr": "Camp {side} : total du jet d'Esprit+Stratégie {total}.",
    },
    "round.result": {
        "en": "Totals {totals}: round winner {round_winner}.",
        "fr": "Totaux {totals} : vainqueur du tour {round_winner}.",
    },
    "round.streak": {
        "en": "Streaks {streaks}.",
        "fr": "Tours consécutifs remportés : {streaks}.",
    },
    "round.impact": {
        "en": "Side {side}: {front_line} hero(es) in the front line, {taken_out} taken out this round.",
        "fr": "Camp {side} : {front_line} héros en première ligne, {taken_out} hors de combat ce tour-ci.",
    },
    "side.update": {
        "en": "Side {side}: {field} set to {value}.",
        "fr": "Camp {side} : {field} passe à {value}.",
    },
    "adjustment.applied": {
        "en": "GM adjustment of {hero_id}: flesh {flesh_wounds}, dramatic {dramatic_wounds}, status {status}.",
        "fr": "Ajustement du MJ pour {hero_id} : blessures légères {flesh_wounds}, graves {dramatic_wounds}, "
              "état {status}.",
    },
    "engagement.declared": {
        "en": "{hero_id}: engagement {engagement}.",
        "fr": "{hero_id} : niveau d'engagement {engagement}.",
    },
    "engagement.forced": {
        "en": "{hero_id}: engagement {engagement} imposed by {by}.",
        "fr": "{hero_id} : engagement {engagement} imposé par {by}.",
    },
    "engagement.rest": {
        "en": "{hero_id} rests this round ({by}).",
        "fr": "{hero_id} ne combat pas ce tour-ci ({by}).",
    },
    "personal.total": {
        "en": "{hero_id}: die {die} + base {base} + unit {unit_modifier:+d} + leadership {leadership_penalty:+d} "
              "+ opportunities {opportunity_modifier:+d} + GM {gm_modifier:+d} = {total}.",
        "fr": "{hero_id} : dé {die} + base {base} + unité {unit_modifier:+d} + Commandement "
              "{leadership_penalty:+d} + opportunités {opportunity_modifier:+d} + MJ {gm_modifier:+d} = {total}.",
    },
    "personal.lookup": {
        "en": "{hero_id}: row {row}, column {column}: {damage_dice} damage dice, {reputation} Reputation, "
              "heroic opportunity {heroic_opportunity}.",
        "fr": "{hero_id} : ligne {row}, colonne {column} : {damage_dice} dés de dommages, {reputation} points de "
              "Réputation, opportunité héroïque {heroic_opportunity}.",
    },
    "damage.roll": {
        "en": "{hero_id}: damage dice {dice} + {extra} = {flesh_wounds_added} flesh wounds, now {flesh_wounds}.",
        "fr": "{hero_id} : dés de dommages {dice} + {extra} = {flesh_wounds_added} blessures légères, "
              "total {flesh_wounds}.",
    },
    "wound_check.result": {
        "en": "{hero_id}: wound check {total} against {tn}: passed {passed}, "
              "{dramatic_wounds_added} dramatic wound(s).",
        "fr": "{hero_id} : jet de blessure {total} contre ND {tn} : réussi {passed}, "
              "{dramatic_wounds_added} blessure(s) grave(s).",
    },
    "hero.taken_out": {
        "en": "{hero_id} is taken out ({cause}).",
        "fr": "{hero_id} est hors de combat ({cause}).",
    },
    "volley.salvo": {
        "en": "Salvo {salvo_level}: {dice_count} dice.",
        "fr": "Niveau de salve {salvo_level} : {dice_count} dés.",
    },
    "volley.hits": {
        "en": "{name}: {roll} = {hits} hit(s).",
        "fr": "{name} : {roll} = {hits} coup(s) au but.",
    },
    "volley.spread": {
        "en": "{hits} hit(s) over {members} member(s): {hits_per_member} each, {remainder} more to members "
              "{spread}.",
        "fr": "{hits} coup(s) au but sur {members} cible(s) : {hits_per_member} chacune, {remainder} de plus "
              "pour les cibles {spread}.",
    },
    "volley.target": {
        "en": "{target_id}: {hits} hit(s), {ignored} ignored, {effective_hits} x {flesh_wounds_per_hit} "
              "(TN row {tn_row}) = {flesh_wounds_added} flesh wounds.",
        "fr": "{target_id} : {hits} coup(s), {ignored} ignoré(s), {effective_hits} x {flesh_wounds_per_hit} "
              "(ligne ND {tn_row}) = {flesh_wounds_added} blessures légères.",
    },
    "volley.brutes": {
        "en": "{target_id}: {hits} hit(s), {killed} brute(s) killed, {survivors} left.",
        "fr": "{target_id} : {hits} coup(s), {killed} brute(s) tuée(s), {survivors} restante(s).",
    },
    "opportunity.started": {
        "en": "{hero_id} accepts {type}: effect {effect}, Reputation {reputation_gained}.",
        "fr": "{hero_id} accepte l'opportunité {type} : effet {effect}, Réputation {reputation_gained}.",
    },
    "opportunity.declined": {
        "en": "{hero_id} declines {type}; Reputation lost {reputation_lost}.",
        "fr": "{hero_id} refuse l'opportunité {type} ; Réputation perdue {reputation_lost}.",
    },
    "opportunity.lapsed": {
        "en": "{hero_id}: the offered opportunity lapses.",
        "fr": "{hero_id} : l'opportunité héroïque proposée est perdue.",
    },
    "opportunity.offered": {
        "en": "{hero_id} is offered a heroic opportunity.",
        "fr": "Une opportunité héroïque s'offre à {hero_id}.",
    },
    "opportunity.advanced": {
        "en": "{hero_id}: {type} round {rounds_done}, Reputation +{gained}.",
        "fr": "{hero_id} : {type}, tour {rounds_done}, Réputation +{gained}.",
    },
    "opportunity.ended": {
        "en": "{hero_id}: {type} ends ({reason}).",
        "fr": "{hero_id} : fin de {type} ({reason}).",
    },
    "opportunity.summary": {
        "en": "{hero_id}: +{effect_reputation} Reputation from opportunities, {battle_reputation} in this battle; "
              "still running {running}.",
        "fr": "{hero_id} : +{effect_reputation} points de Réputation grâce aux opportunités, {battle_reputation} "
              "depuis le début de la bataille ; en cours : {running}.",
    },
    "modifier.queued": {
        "en": "Side {side}: {amount:+d} from {source} of {hero_id}.",
        "fr": "Camp {side} : {amount:+d} au prochain jet du général ({source}, {hero_id}).",
    },
    "battle.won": {
        "en": "Side {winner} wins its third round in a row and the battle.",
        "fr": "Le camp {winner} remporte un troisième tour consécutif : il gagne la bataille.",
    },
    "battle.ended": {
        "en": "The battle ends; winner {winner}.",
        "fr": "Fin de la bataille ; vainqueur {winner}.",
    },
    "aftermath.reputation": {
        "en": "{hero_id}: {share} share, {reputation_before} + {reputation_awarded} - {reputation_lost} = "
              "{reputation_after}.",
        "fr": "{hero_id} : part {share}, {reputation_before} + {reputation_awarded} - {reputation_lost} = "
              "{reputation_after} points de Réputation.",
    },
    "aftermath.reward": {
        "en": "{hero_id} earns the Porté mage's loot: a roll on its table at {roll_modifier:+d}, for the GM.",
        "fr": "{hero_id} reçoit sa part du butin du mage Porté : un jet sur sa table à {roll_modifier:+d}, "
              "à résoudre par le MJ.",
    },
    "sheet.personal_base": {
        "en": "{hero_id}: personal base Wits {wits} + Tactics {tactics} = {base}.",
        "fr": "{hero_id} : base du jet personnel Esprit {wits} + Tactique {tactics} = {base}.",
    },
    "sheet.unit_modifiers": {
        "en": "{hero_id}: {unit_type} modifiers {modifiers}, so bases {bases}.",
        "fr": "{hero_id} : modificateurs d'unité ({unit_type}) {modifiers}, d'où les bases {bases}.",
    },
    "sheet.leadership": {
        "en": "{hero_id}: helping the general adds Leadership {leadership}.",
        "fr": "{hero_id} : aider le général ajoute son rang de Commandement {leadership}.",
    },
    "sheet.wounds": {
        "en": "{hero_id}: wound check pool {pool}; unconscious at {unconscious_at} dramatic wounds; status {status}.",
        "fr": "{hero_id} : jet de blessure {pool} ; inconscient à {unconscious_at} blessures graves ; "
              "état {status}.",
    },
    "sheet.effects": {
        "en": "{hero_id}: effects give personal {personal:+d}, all rolls {all_rolls:+d}, dice penalty "
              "{dice_penalty}.",
        "fr": "{hero_id} : opportunités en cours : jet personnel {personal:+d}, tous les jets {all_rolls:+d}, "
              "dés en moins {dice_penalty}.",
    },
    "sheet.pools": {
        "en": "Side {side}: general {general_pool}, incitation {incitation_pool}, logistics {logistics_pool}.",
        "fr": "Camp {side} : général {general_pool}, Galvaniser {incitation_pool}, Logistique {logistics_pool}.",
    },
    "options.participant": {
        "en": "Declaration options of {kind} {id} for round {round}: {count} field(s).",
        "fr": "Choix de déclaration de {kind} {id} pour le tour {round} : {count} champ(s).",
    },
    "visibility.hidden": {
        "en": "View of side {side}: {count} field(s) hidden.",
        "fr": "Vue du camp {side} : {count} champ(s) masqué(s).",
    },
}


def say(log: Log, rule: str, key: str, **params: Any) -> None:
    """Add a log step with the English template of ``key``."""
    log.add(rule, key, MESSAGES[key]["en"], **params)
