"""Words a player reads: every refusal and every line of explanation, in French and English.

The engine stays free of any framework: messages are values (a code and its parameters) that
render in the language asked for. Parameters that are themselves enums or messages are
rendered in the same language.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

# code -> (French, English)
CATALOG: dict[str, tuple[str, str]] = {
    # Shapes
    "unknown_field": ("Champ inconnu.", "Unknown field."),
    "required": ("Ce champ est obligatoire.", "This field is required."),
    "choice": ("Choisissez parmi : {choices}.", "Choose one of: {choices}."),
    "choice_or_null": (
        "Choisissez parmi : {choices}, ou rien.",
        "Choose one of: {choices}, or nothing.",
    ),
    "list_of": (
        "Attendu : une liste d'objets {shape}.",
        "Expected a list of {shape} objects.",
    ),
    "variant_unknown": (
        "Règle inconnue « {name} ». Choisissez parmi : {choices}.",
        "Unknown rule set “{name}”. Choose one of: {choices}.",
    ),
    "variant_required": (
        "Indiquez la règle (variant) : {choices}.",
        "Name the rule set (variant): {choices}.",
    ),
    "player_required": ("Indiquez le joueur.", "Name the player."),
    "not_an_object": (
        "Attendu : un objet JSON (la donne).",
        "Expected a JSON object (the deal).",
    ),
    "players_list": (
        "Attendu : une liste de {low} à {high} noms de joueurs.",
        "Expected a list of {low} to {high} player names.",
    ),
    "player_name": (
        "Chaque joueur a un nom non vide de {length} caractères au plus.",
        "Each player needs a non-empty name of at most {length} characters.",
    ),
    "players_count": (
        "Il faut de {low} à {high} joueurs (ici {count}).",
        "{low} to {high} players are needed (here {count}).",
    ),
    "players_duplicate": (
        "Le nom « {name} » figure deux fois.",
        "The name “{name}” appears twice.",
    ),
    "not_a_player": (
        "« {name} » n'est pas un joueur de cette table.",
        "“{name}” is not a player at this table.",
    ),
    # Who plays
    "sitting_out_five": (
        "Un joueur ne passe son tour (le mort) qu'à cinq joueurs.",
        "A player sits out (the dummy) only at five players.",
    ),
    "sitting_out_not_allowed": (
        "Ces règles jouent à cinq avec un roi appelé : personne ne passe son tour.",
        "These rules play five with a called king: nobody sits out.",
    ),
    "sitting_out_required": (
        "Ces règles jouent à cinq avec le donneur qui passe son tour : indiquez le mort.",
        "These rules play five with the dealer sitting out: name who sits out.",
    ),
    "sitting_out_plays": (
        "« {name} » passe son tour à cette donne et ne peut pas y jouer ni rien annoncer.",
        "“{name}” sits this deal out and can neither play nor declare anything.",
    ),
    "dealer_sits_out": (
        "À cinq, c'est le donneur qui passe son tour : à cette donne, {name}.",
        "At five, the dealer sits out: for this deal, {name}.",
    ),
    "partner_five": (
        "On n'appelle un partenaire qu'à cinq joueurs actifs (ici {count}).",
        "A partner is called only with five active players (here {count}).",
    ),
    # Points and bouts
    "points_number": (
        "Les points sont un nombre, par exemple 41 ou 40,5.",
        "Points are a number, for example 41 or 40.5.",
    ),
    "points_range": (
        "Les points de l'attaque vont de 0 à 91.",
        "The attack's points range from 0 to 91.",
    ),
    "points_half": (
        "Les points se comptent par demi-point (par exemple 40,5).",
        "Points are counted in half points (for example 40.5).",
    ),
    "oudlers_range": (
        "Le nombre de bouts va de 0 à 3.",
        "The number of bouts (oudlers) ranges from 0 to 3.",
    ),
    "points_whole_four": (
        "À quatre joueurs, les points de l'attaque sont toujours entiers : "
        "chaque camp a un nombre pair de cartes.",
        "At four players the attack's points are always whole: "
        "each side holds an even number of cards.",
    ),
    "points_parity": (
        "{points} points ne peuvent pas se produire à {players} joueurs avec ce contrat.",
        "{points} points cannot happen at {players} players with this contract.",
    ),
    "points_bouts": (
        "Avec {bouts}, l'attaque a entre {low} et {high} points, pas {points}.",
        "With {bouts} the attack has between {low} and {high} points, not {points}.",
    ),
    "bouts_impossible": (
        "{bouts} pour l'attaque est impossible avec ce contrat et ce chelem.",
        "{bouts} for the attack is impossible with this contract and slam.",
    ),
    # Petit au bout
    "petit_attack_bouts": (
        "Petit au bout pour l'attaque : l'attaque a donc le petit, au moins 1 bout.",
        "Petit au bout for the attack: the attack holds the petit, so at least 1 bout.",
    ),
    "petit_defense_bouts": (
        "Petit au bout pour la défense : le petit est à la défense, l'attaque a au plus 2 bouts.",
        "Petit au bout for the defence: the petit is the defence's, so the attack has at most "
        "2 bouts.",
    ),
    "petit_attack_slam": (
        "La défense a fait tous les plis : l'attaque ne peut pas mener le petit au bout.",
        "The defence took every trick: the attack cannot take the petit in the last trick.",
    ),
    "petit_defense_slam": (
        "L'attaque a fait tous les plis : la défense ne peut pas mener le petit au bout.",
        "The attack took every trick: the defence cannot take the petit in the last trick.",
    ),
    # Slam
    "slam_points_attack": (
        "Chelem réalisé : l'attaque a fait tous les plis ; avec {bouts} elle a "
        "de {low} à {high} points, pas {points}.",
        "Slam made: the attack took every trick; with {bouts} it has {low} to {high} "
        "points, not {points}.",
    ),
    "slam_points_defense": (
        "Chelem de la défense : l'attaque n'a fait aucun pli ; avec {bouts} elle a "
        "de {low} à {high} points, pas {points}.",
        "Defence slam: the attack took no trick; with {bouts} it has {low} to {high} "
        "points, not {points}.",
    ),
    "slam_missing": (
        "Avec {points} points l'attaque a fait tous les plis : indiquez le chelem.",
        "With {points} points the attack took every trick: record the slam.",
    ),
    "slam_defense_missing": (
        "Avec {points} points l'attaque n'a fait aucun pli : indiquez le chelem de la défense.",
        "With {points} points the attack took no trick: record the defence's slam.",
    ),
    # Handfuls and misères
    "handful_twice": (
        "« {name} » ne peut montrer qu'une poignée.",
        "“{name}” can show only one handful.",
    ),
    "handful_trump_misere": (
        "« {name} » a annoncé une misère d'atout : pas d'atout, donc pas de poignée.",
        "“{name}” declared a trump misère: no trumps, so no handful.",
    ),
    "handfuls_trumps": (
        "Ces poignées montrent {shown} atouts ; le jeu n'en a que {pack} (excuse comprise).",
        "These handfuls show {shown} trumps; the pack has only {pack} (Excuse included).",
    ),
    "miseres_not_allowed": (
        "Les règles « {rules} » ne comptent pas les misères.",
        "The “{rules}” rules do not count misères.",
    ),
    "misere_twice": (
        "« {name} » a déjà annoncé cette misère.",
        "“{name}” already declared this misère.",
    ),
    "miseres_room_trump": (
        "{count} misères d'atout : les autres mains et le chien ne peuvent pas contenir "
        "les 22 atouts.",
        "{count} trump misères: the other hands and the dog cannot hold all 22 trumps.",
    ),
    "miseres_room_head": (
        "{count} misères de tête : les autres mains et le chien ne peuvent pas contenir "
        "les 16 honneurs.",
        "{count} head misères: the other hands and the dog cannot hold all 16 face cards.",
    ),
    # Rule sets
    "rule_name": ("Un nom de 1 à 80 caractères.", "A name of 1 to 80 characters."),
    "rule_bool": ("Oui ou non (true/false).", "Yes or no (true/false)."),
    "rule_integer": ("Un nombre entier.", "A whole number."),
    "rule_range": ("Un nombre de {low} à {high}.", "A number from {low} to {high}."),
    "rule_trumps_shape": (
        "Trois nombres d'atouts : simple, double, triple.",
        "Three trump counts: simple, double, triple.",
    ),
    "rule_trumps_order": (
        "Simple < double < triple, et au plus {high} atouts.",
        "Simple < double < triple, and at most {high} trumps.",
    ),
    # Novatarok
    "card_points_map": (
        "Attendu : les points de cartes de chaque joueur, un entier positif ou nul.",
        "Expected each player's card points, a whole number of zero or more.",
    ),
    "card_points_total": (
        "Les points de cartes de la manche font {sum} ; à {players} joueurs une manche "
        "en compte de {low} à {high}.",
        "The round's card points add up to {sum}; at {players} players a round counts "
        "{low} to {high}.",
    ),
    "pagat_points": (
        "« {name} » a gagné le dernier pli avec le 1 d'atout : au moins {least} points de cartes.",
        "“{name}” won the last trick with the 1 of trumps: at least {least} card points.",
    ),
    # Buraco
    "sides_shape": (
        "Attendu : deux camps, chacun avec un ou deux joueurs.",
        "Expected two sides, each of one or two players.",
    ),
    "sides_players": (
        "Chaque joueur de la table est dans un camp et un seul, et les camps ont la même taille.",
        "Every player at the table is in exactly one side, and the sides are the same size.",
    ),
    "side_integer": (
        "{field} : un nombre entier de {low} à {high}.",
        "{field}: a whole number from {low} to {high}.",
    ),
    "side_bool": ("{field} : oui ou non.", "{field}: yes or no."),
    "went_out_once": (
        "Un seul camp peut finir (batir).",
        "Only one side can go out.",
    ),
    "went_out_canasta": (
        "Pour finir, un camp doit avoir pris son mort et posé une canasta propre.",
        "To go out, a side must have taken its extra pile and laid a natural canasta.",
    ),
    "extra_pile_unplayed": (
        "Un mort non joué suppose que le camp l'a pris et que l'autre camp a fini.",
        "An unplayed extra pile means the side took it and the other side went out.",
    ),
    "red_threes_total": (
        "Il n'y a que 4 trois rouges dans le jeu.",
        "There are only 4 red threes in the pack.",
    ),
    "hand_points_out": (
        "Un joueur seul qui a fini n'a plus de cartes en main : 0 point en main.",
        "A single player who went out has no cards left: 0 hand points.",
    ),
    # Words used inside explanations
    "won": ("gagné", "won"),
    "lost": ("chuté", "lost"),
    "Contract.prise": ("prise", "take"),
    "Contract.garde": ("garde", "guard"),
    "Contract.garde_sans": ("garde sans", "guard without"),
    "Contract.garde_contre": ("garde contre", "guard against"),
    "Side.attack": ("l'attaque", "the attack"),
    "Side.defense": ("la défense", "the defence"),
    "HandfulSize.simple": ("simple", "single"),
    "HandfulSize.double": ("double", "double"),
    "HandfulSize.triple": ("triple", "triple"),
    "Slam.announced_made": ("Chelem annoncé et réalisé", "Slam announced and made"),
    "Slam.unannounced_made": ("Chelem non annoncé réalisé", "Slam made, not announced"),
    "Slam.announced_failed": ("Chelem annoncé et chuté", "Slam announced and failed"),
    "Slam.defense": ("Chelem de la défense", "Defence slam"),
    "MisereKind.head": ("de tête", "head"),
    "MisereKind.trump": ("d'atout", "trump"),
    # Tarot explanation
    "t_contract": (
        "{taker} : {contract} avec {bouts}, il fallait {needed} points, "
        "l'attaque en a {points} : {outcome} de {margin}.",
        "{taker}: {contract} with {bouts}, {needed} points needed, "
        "the attack has {points}: {outcome} by {margin}.",
    ),
    "t_base": ("Base du contrat : {value}.", "Contract base: {value}."),
    "t_margin": ("Points d'écart : {value}.", "Margin: {value}."),
    "t_points_written": (
        "{written} points écrits comme la FFT les écrit : le compte exact est {points} (la "
        "défense garde l'Excuse et n'a pas de pli pour la racheter), le score est le même.",
        "{written} points written as the FFT writes them: the exact count is {points} (the "
        "defence keeps the Excuse and has no trick to buy it back with); the score is the same.",
    ),
    "t_margin_rounded": (
        "Points d'écart : {value}, arrondis à {counted}.",
        "Margin: {value}, rounded to {counted}.",
    ),
    "t_coefficient": (
        "({base} + {margin}) × {coefficient} ({contract}) = {value} par défenseur.",
        "({base} + {margin}) × {coefficient} ({contract}) = {value} per defender.",
    ),
    "t_petit_multiplied": (
        "Petit au bout pour {side} : {value} × {coefficient} = {total}.",
        "Petit au bout for {side}: {value} × {coefficient} = {total}.",
    ),
    "t_petit": (
        "Petit au bout pour {side} : {total} (non multiplié).",
        "Petit au bout for {side}: {total} (not multiplied).",
    ),
    "t_handful_winner": (
        "Poignée {size} de {player} : au camp gagnant, {side} : {total}.",
        "Handful ({size}) shown by {player}: to the winning side, {side}: {total}.",
    ),
    "t_handful_declarer": (
        "Poignée {size} de {player} : au camp qui l'a montrée, {side} : {total}.",
        "Handful ({size}) shown by {player}: to the side that showed it, {side}: {total}.",
    ),
    "t_slam": ("{slam} : {total} (non multiplié).", "{slam}: {total} (not multiplied)."),
    "t_misere": (
        "Misère {kind} de {player}, pour {side} : {total}.",
        "Misère ({kind}) of {player}, for {side}: {total}.",
    ),
    "t_defender": ("Chaque défenseur : {value}.", "Each defender: {value}."),
    "t_taker": (
        "{taker} (preneur) : {units} × {unit} = {value}.",
        "{taker} (taker): {units} × {unit} = {value}.",
    ),
    "t_partner": ("{partner} (partenaire) : {value}.", "{partner} (partner): {value}."),
    "t_sitting_out": ("{name} passe son tour : 0.", "{name} sits out: 0."),
    # Novatarok explanation
    "n_cards": ("{player} : {points} points de cartes.", "{player}: {points} card points."),
    "n_kings": ("{player} : les quatre rois, +20.", "{player}: all four kings, +20."),
    "n_trull": (
        "{player} : 21, petit et excuse (trull), +20.",
        "{player}: 21, 1 and Fool (trull), +20.",
    ),
    "n_pagat": (
        "{player} : le 1 d'atout au dernier pli (pagat), +20.",
        "{player}: the 1 of trumps in the last trick (pagat), +20.",
    ),
    # Buraco explanation
    "b_side": (
        "{players} : cartes posées {table}, canastas propres {natural} × 200, "
        "sales {mixed} × 100, trois rouges {threes}, fin {out}, main −{hand}, mort {pile} "
        "= {total}.",
        "{players}: table {table}, natural canastas {natural} × 200, mixed {mixed} × 100, "
        "red threes {threes}, going out {out}, hand −{hand}, extra pile {pile} = {total}.",
    ),
}


# Parameters that count something render with their noun in the right number, as
# (French singular, plural), (English singular, plural): French puts 0 and 1 in the
# singular ("0 bout", "1 bout", "2 bouts"), English only 1 ("0 bouts", "1 bout").
COUNTED: dict[str, tuple[tuple[str, str], tuple[str, str]]] = {
    "bouts": (("bout", "bouts"), ("bout", "bouts")),
}


def counted(name: str, count: int, lang: str) -> str:
    """``count`` with its noun (``COUNTED[name]``) in the number the language wants."""
    french, english = COUNTED[name]
    english_asked = lang.startswith("en")
    singular, plural = english if english_asked else french
    one = count == 1 if english_asked else abs(count) < 2
    return f"{count} {singular if one else plural}"


ECHO_MAX = 40
"""A refused value is quoted back at most this long: enough to recognise it."""


def _render_value(value: Any, lang: str) -> str:
    if isinstance(value, Msg):
        return value.render(lang)
    if isinstance(value, Enum):
        return Msg(f"{type(value).__name__}.{value.value}").render(lang)
    if isinstance(value, float):
        text = str(int(value)) if value.is_integer() else str(value)
        return text.replace(".", ",") if lang == "fr" else text
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**12:
        return str(value)
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= ECHO_MAX else text[: ECHO_MAX - 1] + "…"


@dataclass(frozen=True, slots=True, init=False)
class Msg:
    """A message code and its parameters; ``render`` gives the words."""

    code: str
    params: tuple[tuple[str, Any], ...]

    def __init__(self, code: str, **params: Any) -> None:
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "params", tuple(params.items()))

    def render(self, lang: str = "fr") -> str:
        french, english = CATALOG[self.code]
        template = english if lang.startswith("en") else french
        values = {k: self._render_param(k, v, lang) for k, v in self.params}
        return template.format(**values)

    @staticmethod
    def _render_param(name: str, value: Any, lang: str) -> str:
        if isinstance(value, bool):
            return _render_value(value, lang)
        if name == "total" and isinstance(value, int):
            return f"{value:+d}"  # totals read best with their sign: "+20", "-40"
        if name in COUNTED and isinstance(value, int):
            return counted(name, value, lang)
        return _render_value(value, lang)
