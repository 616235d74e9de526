"""Cards drawn as inline SVG, named in the page's language.

`{% card "9S" %}` draws the knight of swords of an Italian deck; `{% card code deck_names %}` with
"french" draws the queen of spades with its suit symbol. Every card is an image with a label, so
a screen reader reads "Cavallo di Spade" where a sighted scorer sees the card.
"""

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext, pgettext

from games.rules.cards import Card, Suit, parse_card

register = template.Library()

ITALIAN_RANK_LETTERS = {1: "A", 8: "F", 9: "C", 10: "R"}
FRENCH_RANK_LETTERS = {1: "A", 8: "J", 9: "Q", 10: "K", 11: "8", 12: "9"}  # 11, 12: pip 8, 9
FRENCH_SYMBOLS = {Suit.COINS: "♦", Suit.CUPS: "♥", Suit.SWORDS: "♠", Suit.BATONS: "♣"}
SUIT_COLOURS = {
    Suit.COINS: "#9a6a00",
    Suit.CUPS: "#b0182f",
    Suit.SWORDS: "#1d4f91",
    Suit.BATONS: "#2f6b2f",
}
FRENCH_COLOURS = {
    Suit.COINS: "#b0182f",
    Suit.CUPS: "#b0182f",
    Suit.SWORDS: "#111",
    Suit.BATONS: "#111",
}

# The Italian suits as simple shapes in a 40x40 box, drawn in the suit's colour.
ITALIAN_GLYPHS = {
    Suit.COINS: (
        '<circle cx="20" cy="20" r="15" fill="{c}"/>'
        '<circle cx="20" cy="20" r="9" fill="none" stroke="#fff" stroke-width="2"/>'
        '<circle cx="20" cy="20" r="3" fill="#fff"/>'
    ),
    Suit.CUPS: ('<path d="M8 6h24c0 10-5 16-10 17v7h6v4H12v-4h6v-7C13 22 8 16 8 6z" fill="{c}"/>'),
    Suit.SWORDS: (
        '<path d="M19 2h2l2 24h-6z" fill="{c}"/><rect x="11" y="26" width="18" height="3" '
        'fill="{c}"/><rect x="18.5" y="29" width="3" height="8" fill="{c}"/>'
    ),
    Suit.BATONS: (
        '<path d="M14 4c5-2 9 0 9 4l-2 28c0 3-5 3-5 0L13 8c0-2 0-3 1-4z" fill="{c}"/>'
        '<circle cx="16" cy="14" r="2" fill="#fff"/><circle cx="19" cy="24" r="2" fill="#fff"/>'
    ),
}


def rank_name(rank: int, french: bool) -> str:
    """A face card and the ace by name, a pip card by the number it shows ("7 of Coins", as
    the rules name it): a card's name starts with what its tile shows, so a voice-control user
    says what they see (WCAG 2.5.3, label in name)."""
    names = {
        1: pgettext("card rank", "Ace"),
        # An Italian deck's cards are named in the reader's language too: "Jack of Coins" in
        # English, "Fante di Denari" in Italian (never "Fante of Denari").
        8: pgettext("card rank", "Jack") if french else pgettext("italian card rank", "Jack"),
        9: pgettext("card rank", "Queen") if french else pgettext("italian card rank", "Knight"),
        10: pgettext("card rank", "King"),
        11: "8",  # the French eight of the 48-card six-player deck
        12: "9",
    }
    return names.get(rank, str(rank))


def suit_name(suit: Suit, french: bool) -> str:
    if french:
        return {
            Suit.COINS: pgettext("french suit", "Diamonds"),
            Suit.CUPS: pgettext("french suit", "Hearts"),
            Suit.SWORDS: pgettext("french suit", "Spades"),
            Suit.BATONS: pgettext("french suit", "Clubs"),
        }[suit]
    return {
        Suit.COINS: pgettext("italian suit", "Coins"),
        Suit.CUPS: pgettext("italian suit", "Cups"),
        Suit.SWORDS: pgettext("italian suit", "Swords"),
        Suit.BATONS: pgettext("italian suit", "Batons"),
    }[suit]


@register.simple_tag
def card_label(code: str | Card, deck_names: str = "italian") -> str:
    """ "Cavallo di Spade", "Queen of Spades": the card's name in the page's language."""
    card = code if isinstance(code, Card) else parse_card(code)
    french = deck_names == "french"
    return gettext("%(rank)s of %(suit)s") % {
        "rank": rank_name(card.rank, french),
        "suit": suit_name(card.suit, french),
    }


def card_face(
    code: str | Card, deck_names: str, *, symbol_y: int, symbol_size: int
) -> tuple[Card, str, str, str]:
    """What a card's drawings show: the card, its rank's letter, its suit's colour and its suit
    drawn (a French symbol at `symbol_y` and `symbol_size`, or the Italian glyph)."""
    parsed = code if isinstance(code, Card) else parse_card(code)
    french = deck_names == "french"
    letters = FRENCH_RANK_LETTERS if french else ITALIAN_RANK_LETTERS
    rank = letters.get(parsed.rank, str(parsed.rank))
    if french:
        colour = FRENCH_COLOURS[parsed.suit]
        glyph = (
            f'<text x="20" y="{symbol_y}" font-size="{symbol_size}" text-anchor="middle" '
            f'fill="{colour}">{FRENCH_SYMBOLS[parsed.suit]}</text>'
        )
    else:
        colour = SUIT_COLOURS[parsed.suit]
        glyph = ITALIAN_GLYPHS[parsed.suit].format(c=colour)
    return parsed, rank, colour, glyph


@register.simple_tag
def card(code: str | Card, deck_names: str = "italian") -> SafeString:
    """The card as an inline SVG image, 60x90 units, labelled with its name."""
    parsed, rank, colour, glyph = card_face(code, deck_names, symbol_y=30, symbol_size=30)
    return format_html(
        '<svg class="card-svg" viewBox="0 0 60 90" role="img" aria-label="{label}">'
        "<title>{label}</title>"
        '<rect x="1" y="1" width="58" height="88" rx="6" fill="#fffdf7" stroke="#555"/>'
        '<text x="6" y="17" font-size="14" font-weight="700" fill="{colour}">{rank}</text>'
        '<text x="54" y="84" font-size="14" font-weight="700" fill="{colour}" '
        'text-anchor="end">{rank}</text>'
        '<g transform="translate(10 25)">{glyph}</g></svg>',
        label=card_label(parsed, deck_names),
        colour=colour,
        rank=rank,
        glyph=SafeString(glyph),
    )


@register.simple_tag
def card_chip(code: str | Card, deck_names: str = "italian") -> SafeString:
    """The card as a small tile, 40x56 units: its rank large over its suit. It fits ten to a
    row on a phone, where the whole card's corner letters would be too small to read. It is
    drawn for the eye only: the button that holds it carries the card's name."""
    _parsed, rank, colour, glyph = card_face(code, deck_names, symbol_y=33, symbol_size=34)
    return format_html(
        '<svg class="card-chip" viewBox="0 0 40 56" aria-hidden="true" focusable="false">'
        '<rect x="1" y="1" width="38" height="54" rx="4" fill="#fffdf7" stroke="#555"/>'
        '<text x="20" y="23" font-size="22" font-weight="700" text-anchor="middle" '
        'fill="{colour}">{rank}</text>'
        '<g transform="translate(8 28) scale(.6)">{glyph}</g></svg>',
        colour=colour,
        rank=rank,
        glyph=SafeString(glyph),
    )
