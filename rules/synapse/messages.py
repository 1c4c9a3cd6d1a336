"""Log sentences of the SYNAPSE engine by key, in English and French.

The web layer renders each log step from its ``key`` and ``params`` in the
reader's language; placeholders are named exactly as the params.
"""

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
