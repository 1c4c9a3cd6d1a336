"""Every sentence of the engine, in English and French, by key (S9.0.1): log steps, option labels,
refusals and the terms of an offer (battle room contract).

The engine writes a log step with :func:`say`, a label or a reason with
:func:`text`, and refuses what the rules forbid with :class:`Refusal`; all
take the English template from here, so the text a CLI prints and the
templates the web layer renders in the reader's language can never disagree.
Placeholders are named as the params.
"""

from __future__ import annotations

from typing import Any

from rules.errors import InvalidInput
from rules.explain import Log
from rules.validate import INPUT_MESSAGES

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
    # -- the battle room contract (docs/rules/seventh_sea.md) -----------------------------------------
    "defaults.applied": {  # ``orders`` holds the same as paths and values, for machines
        "en": "{participant} declared nothing: default orders, {default}.",
        "fr": "{participant} n'a rien déclaré : ordres par défaut, {default}.",
    },
    "opportunity.incomplete": {
        "en": "{hero_id}: the offer is incomplete ({missing} missing), so it lapses.",
        "fr": "{hero_id} : l'offre est incomplète ({missing} manquant), elle est donc perdue.",
    },
    "declarations.merged": {
        "en": "Declarations merged from {participants}.",
        "fr": "Déclarations réunies à partir de {participants}.",
    },
    "battle.running": {
        "en": "The battle goes on.",
        "fr": "La bataille continue.",
    },
    "participants.listed": {
        "en": "Round {round}: {count} participant(s), {waiting} awaited.",
        "fr": "Tour {round} : {count} participant(s), {waiting} attendu(s).",
    },
    "participants.hidden": {
        "en": "What each side may not know of: {counts}.",
        "fr": "Ce que chaque camp ne peut pas connaître : {counts}.",
    },
    "check.result": {
        "en": "Declaration of {participant} checked as {viewer} knows the battle: {refused} refusal(s).",
        "fr": "Déclaration de {participant} vérifiée selon ce que sait {viewer} : {refused} refus.",
    },
    "visibility.round": {
        "en": "Round {round} as {viewer} may read it: {events} event(s) and {steps} step(s) kept.",
        "fr": "Tour {round} tel que {viewer} peut le lire : {events} événement(s) et {steps} étape(s) gardés.",
    },
    "declaration.refused": {
        "en": "{reason}",
        "fr": "Refusé : {reason}",
    },
    # -- option labels (label_key) -------------------------------------------------------------------
    "option.strategy.attacker": {
        "en": "Military strategy, secret until both are in (you are the attacker)",
        "fr": "Tactique militaire, secrète jusqu'à ce que les deux soient connues (vous attaquez)",
    },
    "option.strategy.defender": {
        "en": "Military strategy, secret until both are in (you are the defender)",
        "fr": "Tactique militaire, secrète jusqu'à ce que les deux soient connues (vous défendez)",
    },
    "option.free_raises_spent": {
        "en": "Free raises to spend on the general's roll (+5 each)",
        "fr": "Augmentations gratuites à dépenser sur le jet du général (+5 chacune)",
    },
    "option.engagement": {
        "en": "Engagement level",
        "fr": "Niveau d'engagement",
    },
    "option.engagement.rest": {
        "en": "At the doctor's this round: no engagement",
        "fr": "Chez le médecin ce tour-ci : pas d'engagement",
    },
    "option.engagement.imposed": {
        "en": "Engagement imposed by {by}: {engagement}",
        "fr": "Engagement imposé par {by} : {engagement}",
    },
    "option.help_general.plain": {
        "en": "Lend my Leadership to the general",
        "fr": "Prêter mon Commandement au général",
    },
    "option.help_general": {
        "en": "Lend my Leadership to the general (+{leadership} to the general, -2 to my roll)",
        "fr": "Ajouter mon Commandement (+{leadership} au général, -2 à mon jet)",
    },
    "option.opportunity.accept": {
        "en": "Accept the heroic opportunity {type}",
        "fr": "Accepter l'opportunité héroïque {type}",
    },
    "option.opportunity.input": {
        "en": "{name} (for {type})",
        "fr": "{name} (pour {type})",
    },
    "option.opportunity.opponent": {
        "en": "{name} (for {type}): a tracked active enemy hero, or none",
        "fr": "{name} (pour {type}) : un héros ennemi suivi et actif, ou aucun",
    },
    "option.side.gm_modifier": {
        "en": "Manual modifier of general {side}'s roll",
        "fr": "Modificateur manuel du jet du général {side}",
    },
    "option.side.troops": {
        "en": "Troops of side {side}",
        "fr": "Troupes du camp {side}",
    },
    "option.side.fortification_level": {
        "en": "Fortification level of side {side} (5 = large castle)",
        "fr": "Niveau de fortification du camp {side} (5 = grand château fort)",
    },
    "option.side.terrain": {
        "en": "Terrain of side {side}: {flag}",
        "fr": "Terrain du camp {side} : {flag}",
    },
    "option.side.npc_heroes_front_line": {
        "en": "Untracked heroes of side {side} in the front line",
        "fr": "Héros non suivis du camp {side} en première ligne",
    },
    "option.side.npc_heroes_taken_out": {
        "en": "Untracked heroes of side {side} taken out",
        "fr": "Héros non suivis du camp {side} hors de combat",
    },
    "option.hero.gm_modifier": {
        "en": "Manual modifier of {hero}'s personal roll",
        "fr": "Modificateur manuel du jet personnel de {hero}",
    },
    "option.hero.wound_check_modifier": {
        "en": "Manual modifier of {hero}'s wound check",
        "fr": "Modificateur manuel du jet de blessure de {hero}",
    },
    "option.adjustments": {
        "en": "Adjustments: wounds, status, clear effects (by hero)",
        "fr": "Ajustements : blessures, état, fin des effets (par héros)",
    },
    "option.adjustment.flesh_wounds": {
        "en": "Flesh wounds of {hero} (adjustment)",
        "fr": "Blessures légères de {hero} (ajustement)",
    },
    "option.adjustment.dramatic_wounds": {
        "en": "Dramatic wounds of {hero} (adjustment)",
        "fr": "Blessures graves de {hero} (ajustement)",
    },
    "option.adjustment.status": {
        "en": "Status of {hero} (adjustment)",
        "fr": "État de {hero} (ajustement)",
    },
    "option.adjustment.clear_effects": {
        "en": "End every effect of {hero} (adjustment)",
        "fr": "Mettre fin à tous les effets de {hero} (ajustement)",
    },
    "option.opportunity.offer": {
        "en": "Heroic opportunity offered to {hero}, with its answer",
        "fr": "Opportunité héroïque proposée à {hero}, avec sa réponse",
    },
    "option.opportunity.type": {
        "en": "Heroic opportunity type",
        "fr": "Opportunité héroïque proposée",
    },
    "option.opportunity.gm_accept": {
        "en": "The player's answer (the GM may answer for an absent player)",
        "fr": "La réponse du joueur (le MJ peut répondre pour un joueur absent)",
    },
    # -- refusals (forbidden values' key) ----------------------------------------------------------
    "refusal.free_raises": {
        "en": "Only {pool} free raise(s) left in the army's pool.",
        "fr": "Il ne reste que {pool} augmentation(s) gratuite(s) dans la réserve de l'armée.",
    },
    "refusal.unconscious": {
        "en": "An unconscious hero declares nothing; only GM adjustments concern him.",
        "fr": "Un héros inconscient ne déclare rien ; seuls les ajustements du MJ le concernent.",
    },
    "refusal.resting": {
        "en": "The hero rests this round ({by}).",
        "fr": "Le héros ne combat pas ce tour-ci ({by}).",
    },
    "refusal.help_resting": {
        "en": "A resting hero cannot help the general.",
        "fr": "Un héros qui ne combat pas ne peut pas aider le général.",
    },
    "refusal.imposed": {
        "en": "{by} imposes {engagement}.",
        "fr": "{by} impose {engagement}.",
    },
    "refusal.help_maybe_medic": {
        "en": "Not while the offered opportunity may still be a medic, who makes the hero rest.",
        "fr": "Pas tant que l'opportunité proposée peut encore être Infirmier !, qui retire le héros du combat.",
    },
    "refusal.beyond_revival": {
        "en": "{hero} has {dramatic_wounds} dramatic wounds: at least {unconscious_at} keep him unconscious.",
        "fr": "{hero} a {dramatic_wounds} blessures graves : à partir de {unconscious_at}, il reste inconscient.",
    },
    "refusal.opportunity.unconscious": {
        "en": "An unconscious hero is offered no opportunity.",
        "fr": "Aucune opportunité ne s'offre à un héros inconscient.",
    },
    "refusal.opportunity.running": {
        "en": "The hero already holds a running opportunity.",
        "fr": "Le héros a déjà une opportunité en cours.",
    },
    "refusal.opportunity.held": {
        "en": "The hero already holds a {type} effect.",
        "fr": "Le héros a déjà un effet {type}.",
    },
    "refusal.opportunity.commission": {
        "en": "It needs a commission of Sergeant or higher.",
        "fr": "Il faut une charge de Sergent ou plus.",
    },
    "refusal.opportunity.last_engagement": {
        "en": "It needs the engagement of the round that offered it, and the hero did not fight.",
        "fr": "Il faut l'engagement du tour qui l'a offerte, et le héros n'a pas combattu.",
    },
    "refusal.free_raises_spent": {
        "en": "{spent} free raises spent, but the pool holds only {available}.",
        "fr": "{spent} augmentations gratuites dépensées, mais la réserve n'en a que {available}.",
    },
    "refusal.revival": {
        "en": "{hero_id} has {dramatic_wounds} dramatic wounds: he cannot be active below {unconscious_at}.",
        "fr": "{hero_id} a {dramatic_wounds} blessures graves : il ne peut être actif qu'en dessous de "
              "{unconscious_at}.",
    },
    "refusal.no_such_hero": {
        "en": "No hero {hero_id} in this battle.",
        "fr": "Aucun héros {hero_id} dans cette bataille.",
    },
    "refusal.unconscious_hero": {
        "en": "This hero is unconscious: only the GM's adjustments concern him.",
        "fr": "Ce héros est inconscient : seuls les ajustements du MJ le concernent.",
    },
    "refusal.no_offer": {
        "en": "This hero has no heroic opportunity offered.",
        "fr": "Aucune opportunité héroïque n'est offerte à ce héros.",
    },
    "refusal.opponent": {
        "en": "The duel opponent must be an active hero of the other side.",
        "fr": "L'adversaire du duel doit être un héros actif de l'autre camp.",
    },
    "refusal.finished": {
        "en": "The battle is over: no further round.",
        "fr": "La bataille est terminée : plus aucun tour.",
    },
    "refusal.round_limit": {
        "en": "The round limit ({limit}) is reached.",
        "fr": "La limite de {limit} tours est atteinte.",
    },
    "refusal.required_if_accepted": {
        "en": "Required when {type} is accepted.",
        "fr": "Obligatoire quand {type} est acceptée.",
    },
    "refusal.not_yours": {
        "en": "Not a choice of this participant.",
        "fr": "Ce choix n'appartient pas à ce participant.",
    },
    "refusal.opportunity.helping": {
        "en": "The hero lends his Leadership this round, and a resting hero cannot.",
        "fr": "Le héros prête son Commandement ce tour-ci, ce qu'un héros qui ne combat pas ne peut faire.",
    },
    # -- what an offer costs and brings (help_key of the answer, S11.1) --------------------------------
    "terms.medic": {
        "en": "You spend the round tending the wounded: no fighting, no roll, no Leadership help; afterwards your "
              "flesh wounds are gone and one dramatic wound heals.",
        "fr": "Vous passez le tour à soigner les blessés : ni combat, ni jet, ni aide au général ; ensuite vos "
              "blessures légères disparaissent et une blessure grave guérit.",
    },
    "terms.save_the_banner": {
        "en": "You carry the banner until the battle ends or you fall: +{reputation} Reputation each round, but your "
              "personal die is not rolled and your wound checks and attacks roll one die fewer.",
        "fr": "Vous portez la bannière jusqu'à la fin de la bataille ou votre chute : +{reputation} de Réputation "
              "par tour, mais votre dé personnel n'est pas lancé et vos jets de blessure et d'attaque perdent un dé.",
    },
    "terms.hold_the_position": {
        "en": "For {rounds} rounds you keep last round's level: +{engaged} Reputation a round when engaged, "
              "+{front_line} in the front line, then +{bonus} to your general's next roll if you still stand.",
        "fr": "Pendant {rounds} tours vous gardez le niveau du tour précédent : +{engaged} de Réputation par tour "
              "engagé, +{front_line} en première ligne, puis +{bonus} au prochain jet de votre général si vous "
              "tenez encore debout.",
    },
    "terms.take_the_position": {
        "en": "{modifier} to your personal roll this round: +{reputation} Reputation, and +{bonus} to your "
              "general's next roll if you stay conscious.",
        "fr": "{modifier} à votre jet personnel ce tour-ci : +{reputation} de Réputation, et +{bonus} au prochain "
              "jet de votre général si vous restez conscient.",
    },
    "terms.easy_shot": {
        "en": "One shot now with your attack Trait and knack against TN {tn}: a hit earns +{reputation} Reputation "
              "and puts {penalty} on the enemy general's roll this round.",
        "fr": "Un tir tout de suite, avec votre Trait et votre compétence d'attaque contre un ND de {tn} : touché, "
              "il rapporte +{reputation} de Réputation et inflige {penalty} au jet du général ennemi ce tour-ci.",
    },
    "terms.push_them_back": {
        "en": "You fight in the front line this round: +{reputation} Reputation, and +{bonus} to your general's "
              "next roll if you stay conscious.",
        "fr": "Vous combattez en première ligne ce tour-ci : +{reputation} de Réputation, et +{bonus} au prochain "
              "jet de votre général si vous restez conscient.",
    },
    "terms.rescue_comrade": {
        "en": "{rounds} rounds in the front line to bring a comrade back: +{reputation} Reputation a round.",
        "fr": "{rounds} tours en première ligne pour ramener un camarade : +{reputation} de Réputation par tour.",
    },
    "terms.capture_enemy_banner": {
        "en": "You bring the enemy banner back one level a round, at {modifier} to all your rolls: +{reputation} "
              "Reputation a round; once it reaches the support lines, +{success} Reputation and +{bonus} to your "
              "general.",
        "fr": "Vous ramenez la bannière ennemie d'un niveau par tour, à {modifier} sur tous vos jets : "
              "+{reputation} de Réputation par tour ; arrivée au soutien, +{success} de Réputation et +{bonus} à "
              "votre général.",
    },
    "terms.capture_enemy_banner.held": {
        "en": "The standard-bearer held: this banner cannot be taken.",
        "fr": "Le porte-étendard a tenu bon : cette bannière ne peut pas être prise.",
    },
    "terms.prepare_to_die": {
        "en": "A duel before the round: refusing costs {loss} Reputation; the loser is taken out and his general "
              "gets {penalty} this round.",
        "fr": "Un duel avant le tour : refuser coûte {loss} de Réputation ; le perdant est hors de combat et son "
              "général subit {penalty} ce tour-ci.",
    },
    "terms.prepare_to_die.against": {
        "en": "A duel against {opponent} before the round: refusing costs {loss} Reputation; the loser is taken out "
              "and his general gets {penalty} this round.",
        "fr": "Un duel contre {opponent} avant le tour : refuser coûte {loss} de Réputation ; le perdant est hors "
              "de combat et son général subit {penalty} ce tour-ci.",
    },
    "terms.unhorsed_rider": {
        "en": "{first} to your personal roll for {rounds} rounds, then +{after} until the end of the battle.",
        "fr": "{first} à votre jet personnel pendant {rounds} tours, puis +{after} jusqu'à la fin de la bataille.",
    },
    "terms.charge_their_ranks": {
        "en": "You charge in the front line and face a volley of {dice} dice against the TN to be hit you give: "
              "+{reputation} Reputation if you still stand at the end of the round.",
        "fr": "Vous chargez en première ligne sous une salve de {dice} dés contre le ND pour être touché que vous "
              "donnez : +{reputation} de Réputation si vous êtes encore debout à la fin du tour.",
    },
    "terms.commander_is_dead": {
        "en": "You lead {brutes} soldiers: in each round you spend in the front line they fire, and half their hits "
              "come off the enemy general's next roll and add to your Reputation; they flee after {flee} losses.",
        "fr": "Vous menez {brutes} soldats : à chaque tour passé en première ligne ils tirent, et la moitié de leurs "
              "coups au but est retirée du prochain jet du général ennemi et ajoutée à votre Réputation ; ils "
              "s'enfuient après {flee} pertes.",
    },
    "terms.wounded_porte_mage": {
        "en": "You carry a wounded Porté mage: {modifier} to your personal roll until the end, and a reward (a loot "
              "roll at +{loot}) if you are still conscious then.",
        "fr": "Vous portez un mage Porté blessé : {modifier} à votre jet personnel jusqu'à la fin, et une récompense "
              "(un jet de butin à +{loot}) si vous êtes encore conscient alors.",
    },
    "terms.carry_the_message": {
        "en": "You cross the lines one level for each round your personal total reaches {total}: delivered fast, up "
              "to +{bonus} to your general and as much Reputation, one less for each round it takes.",
        "fr": "Vous traversez les lignes d'un niveau à chaque tour où votre total personnel atteint {total} : remis "
              "vite, jusqu'à +{bonus} pour votre général et autant de Réputation, un de moins par tour passé.",
    },
}

# -- engine values as people read them: ``value.<word>`` -------------------------------------
# A word of a state, an option or a log step's parameters (a strategy, a status, an event kind),
# named by the web from this key (masscombat.core.engine_values): one ruleset's word is not
# another's ("attack" is an action in D&D 5e, a spell's effect in HEROS).
VALUES: dict[str, dict[str, str]] = {
    "value.march": {"en": "Marche (MAR) — march", "fr": "Marche (MAR)"},
    "value.charge": {"en": "Charge (CHA) — charge", "fr": "Charge (CHA)"},
    "value.envelopment": {"en": "Enveloppement (ENV) — envelopment", "fr": "Enveloppement (ENV)"},
    "value.flank_attack": {"en": "Attaque de flanc (FLA) — flank attack", "fr": "Attaque de flanc (FLA)"},
    "value.entrenchment": {"en": "Retranchement (RET) — entrenchment", "fr": "Retranchement (RET)"},
    "value.regroup": {"en": "Regroupement (REG) — regroup", "fr": "Regroupement (REG)"},
    "value.reconnaissance": {"en": "Reconnaissance (REC) — reconnaissance", "fr": "Reconnaissance (REC)"},
    "value.receive_charge": {"en": "Recevoir la charge (REC-CHA) — receive the charge",
                             "fr": "Recevoir la charge (REC-CHA)"},
    "value.in_ranks": {"en": "En rangs (RAN) — in ranks", "fr": "En rangs (RAN)"},
    "value.fall_back": {"en": "Repli (REP) — fall back", "fr": "Repli (REP)"},
    "value.support": {"en": "Support", "fr": "Soutien"},
    "value.disengaged": {"en": "Disengaged", "fr": "Désengagé"},
    "value.engaged": {"en": "Engaged", "fr": "Engagé"},
    "value.front_line": {"en": "Front line", "fr": "Première ligne"},
    "value.active": {"en": "active", "fr": "actif"},
    "value.unconscious": {"en": "unconscious", "fr": "inconscient"},
    "value.infantry": {"en": "infantry", "fr": "infanterie"},
    "value.cavalry": {"en": "cavalry", "fr": "cavalerie"},
    "value.artillery": {"en": "artillery", "fr": "artillerie"},
    # The fourteen heroic opportunities (S6.12).
    "value.medic": {"en": "Medic!", "fr": "Infirmier !"},
    "value.save_the_banner": {"en": "Save the banner!", "fr": "Sauver la bannière !"},
    "value.hold_the_position": {"en": "Hold this position!", "fr": "Tenez cette position !"},
    "value.take_the_position": {"en": "Take this position!", "fr": "Prenez cette position !"},
    "value.easy_shot": {"en": "An easy shot!", "fr": "Un tir facile !"},
    "value.push_them_back": {"en": "Push them back!", "fr": "Repoussez-les !"},
    "value.rescue_comrade": {"en": "To the rescue!", "fr": "À l’aide !"},
    "value.capture_enemy_banner": {"en": "Capture the enemy banner!", "fr": "Capturez la bannière ennemie !"},
    "value.prepare_to_die": {"en": "Prepare to die!", "fr": "Prépare-toi à mourir !"},
    "value.unhorsed_rider": {"en": "Unhorsed rider", "fr": "Cavalier désarçonné"},
    "value.charge_their_ranks": {"en": "Charge their ranks", "fr": "Charger leurs rangs"},
    "value.commander_is_dead": {"en": "The commander is dead", "fr": "Le commandant est mort"},
    "value.wounded_porte_mage": {"en": "Wounded Porté mage (Montaigne)", "fr": "Mage porté blessé (Montaigne)"},
    "value.carry_the_message": {"en": "Carry this message", "fr": "Portez ce message"},
    # Round events (S9.11) and their fields.
    "value.opportunity_started": {"en": "Heroic opportunity started", "fr": "Opportunité héroïque lancée"},
    "value.opportunity_declined": {"en": "Heroic opportunity declined", "fr": "Opportunité héroïque refusée"},
    "value.opportunity_lapsed": {"en": "Heroic opportunity lapsed",
                                 "fr": "Opportunité héroïque perdue faute de réponse"},
    "value.opportunity_offered": {"en": "Heroic opportunity offered", "fr": "Opportunité héroïque offerte"},
    "value.opportunity_ended": {"en": "Heroic opportunity ended", "fr": "Opportunité héroïque terminée"},
    "value.round_result": {"en": "Result of the round", "fr": "Résultat du tour"},
    "value.hero_taken_out": {"en": "Hero taken out", "fr": "Héros hors de combat"},
    "value.modifier_queued": {"en": "Modifier for the next general's roll",
                              "fr": "Modificateur pour le prochain jet du général"},
    "value.battle_won": {"en": "Battle won", "fr": "Bataille gagnée"},
    "value.completed": {"en": "completed", "fr": "accomplie"},
    "value.taken_out": {"en": "taken out", "fr": "hors de combat"},
    "value.delivered": {"en": "delivered", "fr": "remis à bon port"},
    "value.fled": {"en": "the unit fled", "fr": "l’unité a fui"},
    "value.duel": {"en": "in a duel", "fr": "en duel"},
    "value.wounds": {"en": "by wounds", "fr": "par ses blessures"},
    "value.volley": {"en": "by a volley", "fr": "par une salve"},
    "value.gm": {"en": "by the game master", "fr": "par le meneur de jeu"},
    "value.full": {"en": "in full (side won)", "fr": "en entier (camp vainqueur)"},
    "value.half": {"en": "half (side lost, or no winner)", "fr": "moitié (camp vaincu, ou pas de vainqueur)"},
    "value.porte_mage_loot": {"en": "Porté mage's reward (loot roll +3)",
                              "fr": "Récompense du mage porté (jet de butin +3)"},
    # Terrains of a side.
    "value.high_ground": {"en": "High ground", "fr": "Hauteur"},
    "value.difficult_terrain": {"en": "Difficult terrain", "fr": "Terrain difficile"},
    "value.crossing_water": {"en": "Crossing water", "fr": "Traversée d’un cours d’eau"},
    # The parts of a general's total (S4.2–S7.9), as the log names them.
    "value.free_raises_bonus": {"en": "free raises", "fr": "augmentations gratuites"},
    "value.strategy_modifier": {"en": "strategy modifier", "fr": "modificateur de stratégie"},
    "value.terrain_modifier": {"en": "terrain modifier", "fr": "modificateur de terrain"},
    "value.numbers_modifier": {"en": "numbers modifier", "fr": "modificateur de nombre"},
    "value.hero_impact_modifier": {"en": "heroes' impact", "fr": "impact des héros"},
    "value.leadership_modifier": {"en": "leadership modifier", "fr": "modificateur de commandement"},
    "value.opportunity_modifier": {"en": "opportunity modifier", "fr": "modificateur d'opportunité"},
    "value.gm_modifier": {"en": "game master's modifier", "fr": "modificateur du meneur de jeu"},
}
MESSAGES.update(VALUES)
MESSAGES.update(INPUT_MESSAGES)  # a malformed value's refusals (rules.validate)


def say(log: Log, rule: str, key: str, **params: Any) -> None:
    """Add a log step with the English template of ``key``."""
    log.add(rule, key, MESSAGES[key]["en"], **params)


def text(key: str, **params: Any) -> str:
    """The English sentence of ``key`` with ``params``."""
    return MESSAGES[key]["en"].format(**params)


class Refusal(InvalidInput):
    """Invalid input that the rules forbid, with its message (``rule``, ``key``, ``params``) for the room.

    ``problem`` is the field's sentence as the engine has always written it;
    ``check-declaration`` says the refusal with the message instead.
    """

    def __init__(self, path: str, problem: str, rule: str, key: str, error: str | None = None, **params: Any):
        super().__init__(error or f"Invalid value for {path}: {problem}.", {path: problem})
        self.message = {"rule": rule, "key": key, "params": params}

# -- the roster editor's refusals: a sheet's reason for refusing a value in its range ---------
SHEET_REFUSALS: dict[str, dict[str, str]] = {
    "sheet.refused.effect_needs": {"en": "a {type} effect needs {missing}", "fr": "l’effet {type} demande {missing}"},
    "sheet.refused.effect_twice": {"en": "a hero never holds two effects of the same type (S3.6)",
                                   "fr": "un héros n’a jamais deux effets du même type (S3.6)"},
    "sheet.refused.effect_running": {"en": "a hero holds at most one running effect (S3.6)",
                                     "fr": "un héros a au plus un effet en cours (S3.6)"},
}
MESSAGES.update(SHEET_REFUSALS)
