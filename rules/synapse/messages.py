"""Log sentences of the SYNAPSE engine by key, in English and French.

The web layer renders each log step from its ``key`` and ``params`` in the
reader's language; placeholders are named exactly as the params.
"""

from rules.validate import INPUT_MESSAGES

MESSAGES: dict[str, dict[str, str]] = {
    "scale.duration": {
        "en": "{headcount_total} combatants: one {unit} per {per} soldiers, a sequence lasts {amount} {unit}(s).",
        "fr": "{headcount_total} combattants : un(e) {unit} par tranche de {per} soldats, une séquence dure {amount} {unit}(s).",
    },
    "unit.attack_power": {
        "en": "{unit}: {headcount} x Dmg {weapon_damage} x {multiplier} = attack power {attack_power}.",
        "fr": "{unit} : {headcount} x Dmg {weapon_damage} x {multiplier} = Puissance d'Attaque {attack_power}.",
    },
    "unit.multiplier": {
        "en": "{unit}: type multiplier x{multiplier} here ({terrain}, {mode}).",
        "fr": "{unit} : modificateur de type x{multiplier} ici ({terrain}, {mode}).",
    },
    "unit.strength": {
        "en": "{unit}: {headcount} x (SDG {toughness} + Arm {armour}) = strength {strength}.",
        "fr": "{unit} : {headcount} x (SDG {toughness} + Arm {armour}) = Force {strength}.",
    },
    "unit.break": {
        "en": "{unit}: combat {combat_base} gives a break threshold of {break_pct} % = {break_threshold} points.",
        "fr": "{unit} : un Potentiel de Combat de {combat_base} donne un Seuil de Rupture de {break_pct} % = {break_threshold} points.",
    },
    "unit.contact": {
        "en": "{unit}: at contact attack power {attack_power_contact}, defence {defence_contact}.",
        "fr": "{unit} : au contact, Puissance d'Attaque {attack_power_contact}, Défense {defence_contact}.",
    },
    "vehicle.line": {
        "en": "{unit}: {count} x {weapon} ({per_vehicle} each) = {attack_power}; usable {usable}, counted {effective}.",
        "fr": "{unit} : {count} x {weapon} ({per_vehicle} chacun) = {attack_power} ; utilisable {usable}, compté {effective}.",
    },
    "vehicle.combat": {
        "en": "{unit}: crew {crew_combat}, Mod(Ctl) {control_mod}: combat {combat}; defence {defence}.",
        "fr": "{unit} : équipage {crew_combat}, Mod(Ctl) {control_mod} : Combat {combat} ; Défense {defence}.",
    },
    "group.average": {
        "en": "{group} group: {field} weighted by headcount {sum} / {headcount}, rounded down to {value}.",
        "fr": "Groupe {group} : {field} pondéré par l'effectif {sum} / {headcount}, arrondi à l'entier inférieur : {value}.",
    },
    "group.round5": {
        "en": "{group} group: break % rounded down to a multiple of 5: {value}.",
        "fr": "Groupe {group} : Seuil de Rupture arrondi au multiple de 5 inférieur : {value} %.",
    },
    "group.sum": {
        "en": "{group} group: headcount {headcount}, attack power {attack_power}, strength {strength}.",
        "fr": "Groupe {group} : effectif {headcount}, Puissance d'Attaque {attack_power}, Force {strength}.",
    },
    "formation.built": {
        "en": "{formation}: attack power {attack_power}, strength {strength}, routs above {break_threshold} losses.",
        "fr": "{formation} : Puissance d'Attaque {attack_power}, Force {strength}, déroute au-delà de {break_threshold} pertes.",
    },
    "army.command_rating": {
        "en": "{army}: Mental mod {mental_mod} + Combat {combat} + Art of War {art_of_war} = command rating {value}.",
        "fr": "{army} : MdC [MENTAL] {mental_mod} + Cbt {combat} + Art de la Guerre {art_of_war} = potentiel de commandement {value}.",
    },
    "army.command_default": {
        "en": "{army}: no commander, ratings are the army's combat {value}.",
        "fr": "{army} : pas de commandant, les potentiels valent le Potentiel de Combat de l'armée, {value}.",
    },
    "numbers.band": {
        "en": "{big} against {small}: band {band}, bonus +{bonus}.",
        "fr": "{big} contre {small} : rapport {band}, modificateur +{bonus}.",
    },
    "numbers.not_allowed": {
        "en": "The ground prevents any numerical advantage.",
        "fr": "Le terrain empêche tout avantage numérique.",
    },
    "command.result": {
        "en": "Command test {score_A} against {score_B} (margin {margin}): initiative {initiative}, surprised {surprised}.",
        "fr": "Test de commandement {score_A} contre {score_B} (écart {margin}) : initiative {initiative}, surpris {surprised}.",
    },
    "retreat.army": {
        "en": "Side {side} tries to withdraw with margin {margin}: {outcome}.",
        "fr": "Le camp {side} tente de se replier avec un écart de {margin} : {outcome}.",
    },
    "retreat.both": {
        "en": "Both sides withdraw: the battle ends without a winner.",
        "fr": "Les deux camps se replient : la bataille s'achève sans vainqueur.",
    },
    "retreat.vehicle": {
        "en": "{unit}: retreat {score} against a best pursuer of {best}, margin {margin}: {outcome}.",
        "fr": "{unit} : repli {score} contre un meilleur poursuivant à {best}, écart {margin} : {outcome}.",
    },
    "retreat.free": {
        "en": "{unit}: no enemy engaged it, it breaks off freely.",
        "fr": "{unit} : aucun ennemi ne l'accroche, elle se dégage librement.",
    },
    "reserve.committed": {
        "en": "Side {side} commits its reserve ({formations}); significant: {significant}.",
        "fr": "Le camp {side} engage sa réserve ({formations}) ; significative : {significant}.",
    },
    "reserve.auto": {
        "en": "Side {side} has nothing left on the field: its reserve enters next round.",
        "fr": "Le camp {side} n'a plus personne sur le terrain : sa réserve entre à la prochaine séquence.",
    },
    "rally.result": {
        "en": "{formation}: rally {score} against {difficulty}, margin {margin}: {recovered_pct} % of the losses ({recovered}) recovered.",
        "fr": "{formation} : ralliement {score} contre {difficulty}, écart {margin} : {recovered_pct} % des pertes ({recovered}) récupérées.",
    },
    "gm.weather": {
        "en": "The GM changes the weather: {changes}.",
        "fr": "Le MJ change la météo : {changes}.",
    },
    "gm.change": {
        "en": "The GM sets {field} to {value}.",
        "fr": "Le MJ fixe {field} à {value}.",
    },
    "attack.power": {
        "en": "{attack}: attack power {power}, halved {halvings} time(s): {used}.",
        "fr": "{attack} : Puissance d'Attaque {power}, réduite de moitié {halvings} fois : {used}.",
    },
    "attack.score": {
        "en": "{attack}: combat {combat} + roll {roll} + modifiers {modifiers} = {score}.",
        "fr": "{attack} : Combat {combat} + jet {roll} + modificateurs {modifiers} = {score}.",
    },
    "attack.difficulty": {
        "en": "{attack}: defence {defence}, halved {halvings} time(s) = {defence_used}, + cover {cover} + distance {distance} = difficulty {difficulty}.",
        "fr": "{attack} : Défense {defence}, réduite de moitié {halvings} fois = {defence_used}, + couvert {cover} + distance {distance} = difficulté {difficulty}.",
    },
    "attack.losses": {
        "en": "{attack}: margin {margin} gives {loss_pct} % of {attack_power} = {inflicted} losses.",
        "fr": "{attack} : une MTR de {margin} donne {loss_pct} % de {attack_power} = {inflicted} pertes.",
    },
    "attack.pursuit_halved": {
        "en": "{attack}: the pursued side is more mobile, losses halved to {inflicted}.",
        "fr": "{attack} : les fuyards sont plus mobiles, pertes réduites de moitié à {inflicted}.",
    },
    "attack.cap": {
        "en": "{attack}: {inflicted} exceeds the break threshold {break_threshold}: losses cut to it and the target routs.",
        "fr": "{attack} : {inflicted} dépasse le Seuil de Rupture {break_threshold} : les pertes y sont ramenées et la cible est en déroute.",
    },
    "attack.failed": {
        "en": "{attack}: failed by {mte}; the target gains a counter bonus of {counter_bonus}.",
        "fr": "{attack} : échec d'une MTE de {mte} ; la cible gagne un bonus de riposte de {counter_bonus}.",
    },
    "attack.void": {
        "en": "{attack} does not take place ({reason}).",
        "fr": "{attack} n'a pas lieu ({reason}).",
    },
    "attack.friendly_fire": {
        "en": "{attack}: the missed volley falls on {formation}: {losses} losses.",
        "fr": "{attack} : les tirs manqués tombent sur {formation} : {losses} pertes.",
    },
    "state.change": {
        "en": "{formation}: {losses} losses of {strength}, now {state}.",
        "fr": "{formation} : {losses} pertes sur {strength}, désormais {state}.",
    },
    "status.routed": {
        "en": "{formation} routs ({losses} losses above {break_threshold}).",
        "fr": "{formation} est en déroute ({losses} pertes au-delà de {break_threshold}).",
    },
    "status.routed_retreat": {
        "en": "{formation} routs while trying to retreat.",
        "fr": "{formation} est en déroute en tentant de se replier.",
    },
    "status.destroyed": {
        "en": "{formation} is annihilated.",
        "fr": "{formation} est anéantie.",
    },
    "status.fled": {
        "en": "{formation} flees the battlefield.",
        "fr": "{formation} fuit le champ de bataille.",
    },
    "status.withdrawn": {
        "en": "{formation} leaves the battlefield in good order.",
        "fr": "{formation} quitte le champ de bataille en bon ordre.",
    },
    "battle.over": {
        "en": "The battle is over: winner {winner} ({reason}).",
        "fr": "La bataille est terminée : vainqueur {winner} ({reason}).",
    },
    "casualties.unit": {
        "en": "{unit}: {losses} points / {soldier_points} per man = {out_of_action} out of action (at least {killed_min} dead), {minor_points} points of light wounds.",
        "fr": "{unit} : {losses} points / {soldier_points} par homme = {out_of_action} hors de combat (dont au moins {killed_min} tués), {minor_points} points de blessures légères.",
    },
    "casualties.crew": {
        "en": "{unit}: {state} after {losses} damage, {crew_loss_pct} % of the crew ({crew_lost}) lost.",
        "fr": "{unit} : {state} après {losses} dommages, {crew_loss_pct} % de l'équipage ({crew_lost}) perdu.",
    },
    "aftermath.result": {
        "en": "Side {side}: {result}, {xp} XP by default.",
        "fr": "Camp {side} : {result}, {xp} points d'expérience par défaut.",
    },
    "aftermath.recovery": {
        "en": "The winner recovers half of {formation}'s {losses} losses: {recovered}.",
        "fr": "Le vainqueur récupère la moitié des {losses} pertes de {formation} : {recovered}.",
    },
    "aftermath.abandoned": {
        "en": "Side {side} was routed and abandons its guns: {units}.",
        "fr": "Le camp {side} a été mis en déroute et abandonne son artillerie : {units}.",
    },
    "aftermath.character": {
        "en": "{character}: {group_loss_pct} % losses, {dice_count}d3 = {total} - armour {armour} = {damage} damage.",
        "fr": "{character} : {group_loss_pct} % de pertes, {dice_count}D3 = {total} - armure {armour} = {damage} dommages.",
    },
    "siege.holding": {
        "en": "Combat {combat} x fortification {factor} (halved by engineers: {engineers_halve}): the garrison holds {holding_weeks} weeks.",
        "fr": "Combat {combat} x Fortification {factor} (divisé par deux par le génie : {engineers_halve}) : la garnison tient {holding_weeks} semaines.",
    },
    "siege.attrition": {
        "en": "{extra_weeks} weeks beyond, in tranches of {tranche_weeks}, blockade {blockade}: {attrition_pct} % losses = {attrition_losses} points.",
        "fr": "{extra_weeks} semaines de plus, par tranches de {tranche_weeks}, blocus {blockade} : {attrition_pct} % de pertes = {attrition_losses} points.",
    },
    "siege.negotiation": {
        "en": "Negotiation {score} against {difficulty}: margin {margin}.",
        "fr": "Négociation {score} contre {difficulty} : écart {margin}.",
    },
    "xp.step": {
        "en": "Raising combat from {from} to {to} costs {cost} XP.",
        "fr": "Passer le Combat de {from} à {to} coûte {cost} points d'expérience.",
    },
    "xp.award": {
        "en": "{result}: {xp_awarded} XP awarded, {xp_available} available.",
        "fr": "{result} : {xp_awarded} points d'expérience gagnés, {xp_available} disponibles.",
    },
    "options.listed": {
        "en": "{count} declaration option(s) for {kind} {id} in round {round}.",
        "fr": "{count} option(s) de déclaration pour {kind} {id} à la séquence {round}.",
    },
    "visibility.masked": {
        "en": "What side {side} sees: {count} hidden item(s).",
        "fr": "Ce que voit le camp {side} : {count} élément(s) masqué(s).",
    },
}

# The battle room contract (docs/rules/synapse.md): outcomes, room operations, option labels,
# refusals, and the enemy's log steps as a side reads them (without numbers).
MESSAGES.update({
    "battle.ongoing": {"en": "The battle goes on.", "fr": "La bataille continue."},
    "battle.rout": {"en": "One army is routed or destroyed.", "fr": "Une armée est en déroute ou détruite."},
    "battle.withdrawal": {"en": "An army withdrew.", "fr": "Une armée s'est repliée."},
    "battle.mutual": {"en": "Both armies broke.", "fr": "Les deux armées ont cédé."},
    "battle.gm": {"en": "The game master ended the battle.", "fr": "Le meneur de jeu a mis fin à la bataille."},
    "defaults.applied": {"en": "{participant} declared nothing: its formations hold.",
                         "fr": "{participant} n'a rien déclaré : ses formations restent sur la défensive."},
    "attack.screened": {
        "en": "{attack} stops: a reserve of melee troops committed this round now screens {target}.",
        "fr": "{attack} s'arrête : une réserve de troupes de mêlée engagée ce tour couvre désormais {target}.",
    },
    "declarations.merged": {"en": "{count} declaration(s) merged: {keys}.",
                            "fr": "{count} déclaration(s) réunie(s) : {keys}."},
    "participants.listed": {"en": "Round {round}: {count} participant(s) may declare.",
                            "fr": "Tour {round} : {count} participant(s) peuvent déclarer."},
    "participants.hidden": {"en": "What each side may not know of: {counts}.",
                            "fr": "Ce que chaque camp ne peut pas connaître : {counts}."},
    "declaration.refused": {"en": "{reason}", "fr": "{reason}"},  # a malformed value: the validator's own words
    "declaration.checked": {"en": "Declaration of {participant}: {count} problem(s).",
                            "fr": "Déclaration de {participant} : {count} problème(s)."},
    # Option labels.
    "label.retreat": {"en": "Withdraw the whole army", "fr": "Replier toute l'armée"},
    "label.commit_reserve": {"en": "Commit the reserve", "fr": "Engager la réserve"},
    "label.rally": {"en": "Formations that try to rally", "fr": "Formations qui tentent de se rallier"},
    "label.order": {"en": "Order of {formation}", "fr": "Ordre de {formation}"},
    "label.target": {"en": "Target of {formation} (when it attacks)", "fr": "Cible de {formation} (si elle attaque)"},
    "label.new_command_test": {"en": "Call a new command test", "fr": "Demander un nouveau test de commandement"},
    "label.end_battle": {"en": "End the battle", "fr": "Terminer la bataille"},
    "label.visibility": {"en": "Visibility", "fr": "Visibilité"},
    "label.strong_wind": {"en": "Strong wind", "fr": "Vent fort"},
    "label.extreme_temperature": {"en": "Extreme temperature", "fr": "Température extrême"},
    "label.gruelling_climate": {"en": "Gruelling climate", "fr": "Climat éprouvant"},
    "label.engagement_distance": {"en": "Engagement distance", "fr": "Distance d'engagement"},
    "label.mobility_edge": {"en": "Side with the more mobile troops", "fr": "Camp aux troupes les plus mobiles"},
    "label.numbers_advantage_allowed": {"en": "Numerical advantage allowed", "fr": "Avantage numérique permis"},
    "label.surprise_allowed": {"en": "Surprise allowed", "fr": "Surprise permise"},
    "label.encircled": {"en": "Encircled formations", "fr": "Formations encerclées"},
    "label.command_modifier": {"en": "Command test modifier of side {side}",
                               "fr": "Modificateur du test de commandement du camp {side}"},
    "label.rally_modifier": {"en": "Rally modifier of {formation}", "fr": "Modificateur de ralliement de {formation}"},
    "label.attack": {"en": "Attack modifier of {formation}", "fr": "Modificateur d'attaque de {formation}"},
    "label.defence": {"en": "Defence modifier of {formation}", "fr": "Modificateur de défense de {formation}"},
    "label.ranged_cover": {"en": "Ranged cover modifier of {formation}",
                           "fr": "Modificateur de couvert contre les tirs de {formation}"},
    "label.distance": {"en": "Distance of {formation}'s shots", "fr": "Distance des tirs de {formation}"},
    "label.attack_power_factor": {"en": "Firepower of {formation} against its target",
                                  "fr": "Puissance de feu de {formation} contre sa cible"},
    # Refusals.
    "refusal.no_target": {"en": "an attack needs a target", "fr": "une attaque demande une cible"},
    "refusal.no_formation": {"en": "no formation {formation!r}", "fr": "aucune formation {formation!r}"},
    "refusal.own_target": {"en": "a formation attacks only enemy formations",
                           "fr": "une formation n'attaque que des formations ennemies"},
    "refusal.target_out": {"en": "the target is not on the battlefield", "fr": "la cible n'est pas sur le champ de bataille"},
    "refusal.may_be_screened": {
        "en": "ranged troops cannot be charged while their side may still field a melee formation",
        "fr": "on ne charge pas des troupes à distance tant que leur camp peut encore aligner une formation de mêlée",
    },
    "refusal.screened": {
        "en": "ranged troops cannot be charged while their side keeps a melee formation",
        "fr": "on ne charge pas des troupes à distance tant que leur camp garde une formation de mêlée",
    },
    "refusal.no_vehicle_riposte": {"en": "no riposte in a vehicle battle", "fr": "pas de riposte dans un combat de véhicules"},
    "refusal.routed_attack": {"en": "a routed formation may only hold or riposte",
                              "fr": "une formation en déroute ne peut que tenir ou riposter"},
    "refusal.riposte_routed_only": {"en": "only a routed formation ripostes",
                                    "fr": "seule une formation en déroute riposte"},
    "refusal.retreat_vehicles_only": {"en": "a formation retreats alone only in a vehicle battle",
                                      "fr": "une formation ne se retire seule que dans un combat de véhicules"},
    "refusal.no_army_retreat": {"en": "no army retreat in a vehicle battle",
                                "fr": "pas de repli d'armée dans un combat de véhicules"},
    "refusal.no_reserve": {"en": "the side has no uncommitted reserve", "fr": "le camp n'a pas de réserve à engager"},
    "refusal.no_vehicle_rally": {"en": "no rally in a vehicle battle", "fr": "pas de ralliement dans un combat de véhicules"},
    "refusal.rally_not_routed": {"en": "must be an own routed formation, listed once",
                                 "fr": "doit être une formation du camp en déroute, nommée une seule fois"},
    "refusal.only_routed_rally": {"en": "only a routed formation rallies", "fr": "seule une formation en déroute se rallie"},
    "refusal.not_own": {"en": "not a formation of side {side}", "fr": "pas une formation du camp {side}"},
    "refusal.cannot_act": {"en": "this formation cannot act this round", "fr": "cette formation ne peut pas agir ce tour"},
    "refusal.modifier_range": {"en": "must be between {low} and {high}", "fr": "doit être entre {low} et {high}"},
    "refusal.nothing_to_attack": {"en": "no enemy formation may be attacked now",
                                  "fr": "aucune formation ennemie ne peut être attaquée maintenant"},
    # The enemy's steps as a side reads them (S11.2).
    "command.result.seen": {"en": "Command test: initiative {initiative}, surprised {surprised}.",
                            "fr": "Test de commandement : initiative {initiative}, surpris {surprised}."},
    "retreat.army.seen": {"en": "Side {side} tries to withdraw: {outcome}.",
                          "fr": "Le camp {side} tente de se replier : {outcome}."},
    "rally.result.seen": {"en": "{formation} tries to rally.", "fr": "{formation} tente de se rallier."},
    "retreat.vehicle.seen": {"en": "{unit} tries to break off: {outcome}.", "fr": "{unit} tente de rompre le contact : {outcome}."},
    "numbers.band.seen": {"en": "Numerical advantage in the shock: {band}.", "fr": "Avantage numérique au choc : {band}."},
    "reserve.committed.seen": {"en": "Side {side} commits its reserve ({formations}).",
                               "fr": "Le camp {side} engage sa réserve ({formations})."},
    "attack.failed.seen": {"en": "{attack} misses.", "fr": "{attack} échoue."},
    "attack.cap.seen": {"en": "{attack}: the target routs.", "fr": "{attack} : la cible est mise en déroute."},
    "attack.friendly_fire.seen": {"en": "{attack}: the missed volley falls on {formation}.",
                                  "fr": "{attack} : la volée manquée tombe sur {formation}."},
    "state.change.seen": {"en": "{formation} is now {state}.", "fr": "{formation} est maintenant {state}."},
    "status.routed.seen": {"en": "{formation} routs.", "fr": "{formation} est en déroute."},
    # A land formation's name (``name_keys`` of visible-state and visible-round): its army and group (S3.4).
    "name.formation.melee": {"en": "{army} — melee troops", "fr": "{army} — troupes de mêlée"},
    "name.formation.ranged": {"en": "{army} — ranged troops", "fr": "{army} — troupes à distance"},
    "name.formation.artillery": {"en": "{army} — artillery", "fr": "{army} — artillerie"},
    "name.formation.reserve": {"en": "{army} — reserve", "fr": "{army} — réserve"},
})

# -- engine values as people read them: ``value.<word>`` -------------------------------------
# A word of a state, an option or a log step's parameters (a strategy, a status, an event kind),
# named by the web from this key (masscombat.core.engine_values): one ruleset's word is not
# another's ("attack" is an action in D&D 5e, a spell's effect in HEROS).
VALUES: dict[str, dict[str, str]] = {
    "value.hold": {"en": "Hold", "fr": "Tenir"},
    "value.attack": {"en": "Attack", "fr": "Attaquer"},
    "value.riposte": {"en": "Riposte", "fr": "Riposter"},
    "value.retreat": {"en": "Retreat", "fr": "Se replier"},
    "value.active": {"en": "active", "fr": "actif"},
    "value.routed": {"en": "routed", "fr": "en déroute"},
    # Why an attack does not take place (S5.9, S7.4).
    "value.attacker_not_active": {"en": "the attacker can no longer fight", "fr": "l'attaquant ne peut plus combattre"},
    "value.target_out": {"en": "its target has left the battle", "fr": "sa cible a quitté la bataille"},
    "value.already_pursued": {"en": "its target is already pursued", "fr": "sa cible est déjà poursuivie"},
    "value.screened": {"en": "a reserve covers its target", "fr": "une réserve couvre sa cible"},
    "value.fled": {"en": "fled", "fr": "en fuite"},
    "value.destroyed": {"en": "destroyed", "fr": "détruit"},
    "value.withdrawn": {"en": "withdrawn", "fr": "retirée"},
    "value.reserve": {"en": "in reserve", "fr": "en réserve"},
    "value.fresh": {"en": "fresh", "fr": "frais"},
    "value.engaged": {"en": "engaged", "fr": "engagé"},
    "value.shaken": {"en": "shaken", "fr": "ébranlé"},
    "value.decimated": {"en": "decimated", "fr": "décimé"},
    "value.annihilated": {"en": "annihilated", "fr": "anéantie"},
    "value.good": {"en": "good", "fr": "bonne"},
    "value.poor": {"en": "poor", "fr": "mauvaise"},
    "value.very_poor": {"en": "very poor", "fr": "très mauvaise"},
    "value.short": {"en": "short", "fr": "courte"},
    "value.medium": {"en": "medium", "fr": "moyenne"},
    "value.long": {"en": "long", "fr": "longue"},
    "value.very_long": {"en": "very long", "fr": "très longue"},
    "value.full": {"en": "full", "fr": "pleine"},
    "value.half": {"en": "half", "fr": "moitié"},
    "value.none": {"en": "none", "fr": "aucun"},
    # Round events (S5.5–S5.13) and what they report.
    "value.command_test": {"en": "Command test", "fr": "Test de commandement"},
    "value.reserve_committed": {"en": "Reserve committed", "fr": "Réserve engagée"},
    "value.rally": {"en": "Rally attempt", "fr": "Tentative de ralliement"},
    "value.friendly_fire": {"en": "Friendly fire", "fr": "Tir ami"},
    "value.battle_over": {"en": "End of the battle", "fr": "Fin de la bataille"},
    "value.pinned": {"en": "pinned", "fr": "fixée"},
    "value.failed": {"en": "failed", "fr": "échec"},
    "value.rout": {"en": "rout", "fr": "déroute"},
    "value.withdrawal": {"en": "withdrawal", "fr": "retraite"},
    "value.mutual": {"en": "both sides broke", "fr": "les deux camps ont rompu"},
    "value.gm": {"en": "the game master ended it", "fr": "arrêtée par le meneur de jeu"},
    # How a withdrawal ends (S5.6), on whom a missed volley falls (S7.5).
    "value.success": {"en": "success", "fr": "réussite"},
    "value.failure, -2": {"en": "failure, -2", "fr": "échec, -2"},
    "value.friends in contact": {"en": "friends in contact", "fr": "les alliés au contact"},
    # The values of a group averaged over its units (S4.8).
    "value.combat": {"en": "combat", "fr": "Potentiel de Combat"},
    "value.break_pct": {"en": "break percentage", "fr": "Seuil de Rupture"},
    # Aftermath results (S6.8).
    "value.crushing_defeat": {"en": "crushing defeat", "fr": "défaite écrasante"},
    "value.defeat": {"en": "defeat", "fr": "défaite"},
    "value.status_quo": {"en": "status quo", "fr": "statu quo"},
    "value.marginal_victory": {"en": "marginal victory", "fr": "victoire marginale"},
    "value.victory": {"en": "victory", "fr": "victoire"},
    "value.decisive_victory": {"en": "decisive victory", "fr": "victoire décisive"},
}
MESSAGES.update(VALUES)
MESSAGES.update(INPUT_MESSAGES)  # a malformed value's refusals (rules.validate)

# -- the roster editor's refusals: a sheet's reason for refusing a value in its range ---------
SHEET_REFUSALS: dict[str, dict[str, str]] = {
    "sheet.refused.at_least_one": {"en": "must be at least 1", "fr": "doit valoir au moins 1"},
    "sheet.refused.rate_shape": {"en": 'must look like 2, "1/2" or "4R"',
                                 "fr": "s’écrit comme 2, « 1/2 » ou « 4R »"},
    "sheet.refused.rate_max": {"en": "numbers above {max} are not accepted",
                               "fr": "les nombres au-delà de {max} ne sont pas acceptés"},
    "sheet.refused.pieces_needed": {"en": "required for artillery", "fr": "obligatoire pour l’artillerie"},
    "sheet.refused.artillery_range": {"en": "artillery fights at range", "fr": "l’artillerie combat à distance"},
    "sheet.refused.pieces_artillery": {"en": "only artillery has pieces", "fr": "seule l’artillerie a des pièces"},
    "sheet.refused.ranged_needs": {"en": "required for a ranged unit", "fr": "obligatoire pour une unité de tir"},
    "sheet.refused.secondary_melee": {"en": "only melee units add a secondary weapon",
                                      "fr": "seules les unités de mêlée ajoutent une arme secondaire"},
    "sheet.refused.thrown_melee": {"en": "only melee units have thrown weapons",
                                   "fr": "seules les unités de mêlée ont des armes de jet"},
    "sheet.refused.ranged_group": {"en": "only ranged units belong to this group",
                                   "fr": "seules les unités de tir appartiennent à ce groupe"},
}
MESSAGES.update(SHEET_REFUSALS)
