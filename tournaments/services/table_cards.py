"""Table cards: for each table of a tournament, a printable card whose QR code opens the table
page with a device key for that table (`/table/#key=KEY`), as SVG or as a one-page PDF.

The key is a secret, and only its hash is stored, so a card cannot show the key of a token
issued earlier at random. Each table's card key is derived instead: from the server's secret,
the tournament, the table and a serial number (`accounts.keys.derived_device_key`). Producing a
card issues the token of the first serial not issued yet, unless the table's card token is
still active, in which case the card shows that same key again: printing a card twice (SVG, then
PDF) gives the same working card, and no pile of tokens. Revoking the token (the device-token
API) or its expiry retires the card; the next card takes the next serial. The token scores that
table of that tournament only; it is the organizer's who produced the card
(docs/decisions/0025-table-cards.md).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

import segno
from django.db import IntegrityError, transaction
from django.utils import formats, timezone
from django.utils.html import escape
from django.utils.translation import gettext, gettext_noop

from accounts.keys import derived_device_key, hash_key
from accounts.models import DeviceToken, DeviceTokenState, User
from accounts.services import InvalidDeviceToken, device_token_create
from tournaments.errors import TournamentError
from tournaments.models import Tournament
from tournaments.projections import rows
from tournaments.selectors.lookup import tournament_get

CARD_SERIALS = 200
"""How many times a table's card may be retired (revoked, expired) and made again."""


class TableNotFound(TournamentError):
    code = "table_not_found"


@dataclass(frozen=True)
class TableCard:
    tournament: str
    table: int
    url: str
    """The table page with the device key in its fragment: what the QR code holds."""
    expires_at: datetime
    prefix: str
    """The key's first characters, to recognise its token in the list of device tokens."""


def table_card_issue(
    *, tournament_id: UUID, table: int, organizer: User, table_page: str
) -> TableCard:
    """The card of `table` (its token issued now unless the table's card token is active), for
    the table page at the absolute URL `table_page`."""
    tournament = tournament_get(tournament_id=tournament_id)
    tables = rows.tables_of(tournament)
    if not 1 <= table <= tables:
        raise TableNotFound.because(
            gettext_noop("the tournament's tables are numbered 1 to %(tables)s, not %(table)s"),
            tables=tables,
            table=table,
        )
    return card_of(tournament, table, organizer, table_page)


def table_cards_issue(*, tournament_id: UUID, organizer: User, table_page: str) -> list[TableCard]:
    """The card of every table of the tournament, in order (each as `table_card_issue` gives
    it: the same key while the table's card token is active)."""
    tournament = tournament_get(tournament_id=tournament_id)
    return [
        card_of(tournament, table, organizer, table_page)
        for table in range(1, rows.tables_of(tournament) + 1)
    ]


def card_of(tournament: Tournament, table: int, organizer: User, table_page: str) -> TableCard:
    token, key = table_card_token(tournament_id=tournament.id, table=table, organizer=organizer)
    return TableCard(
        tournament=tournament.name,
        table=table,
        url=f"{table_page}#key={key}",
        expires_at=token.expires_at,
        prefix=token.prefix,
    )


def card_key(tournament_id: UUID, table: int, serial: int) -> str:
    return derived_device_key(purpose=f"table-card:{tournament_id}:{table}:{serial}")


def table_card_token(
    *, tournament_id: UUID, table: int, organizer: User
) -> tuple[DeviceToken, str]:
    """The table's active card token and its key, issued now if there is none."""
    now = timezone.now()
    keys = [card_key(tournament_id, table, serial) for serial in range(1, CARD_SERIALS + 1)]
    issued = {
        token.key_hash: token
        for token in DeviceToken.objects.filter(key_hash__in=[hash_key(key) for key in keys])
    }
    for key in keys:
        token = issued.get(hash_key(key))
        if token is None:
            return card_token_create(tournament_id, table, organizer, key)
        if token.state_at(now) == DeviceTokenState.ACTIVE:
            return token, key
    raise InvalidDeviceToken.because(
        gettext_noop(
            "table %(table)s has had %(cards)s cards already: issue a device token instead"
        ),
        table=table,
        cards=CARD_SERIALS,
    )


def card_token_create(
    tournament_id: UUID, table: int, organizer: User, key: str
) -> tuple[DeviceToken, str]:
    try:
        with transaction.atomic():
            return device_token_create(
                user=organizer,
                device=f"table {table} card",
                created_by=organizer,
                tournament_id=tournament_id,
                tables=[table],
                key=key,
            )
    except IntegrityError:  # another request made this card at the same moment: show it
        return DeviceToken.objects.get(key_hash=hash_key(key)), key


# Drawing the card.

CARD_WIDTH_MM = 105
CARD_HEIGHT_MM = 148
"""A6 portrait: four to an A4 sheet."""
QR_SIZE_MM = 80
QR_TOP_MM = 40
QUIET_ZONE = 4
"""The blank modules around a QR code that scanners need."""
MM_IN_POINTS = 72 / 25.4


def qr_matrix(url: str) -> Sequence[Sequence[int]]:
    return segno.make(url, error="m", micro=False).matrix


def dark_runs(matrix: Sequence[Sequence[int]]) -> Iterator[tuple[int, int, int]]:
    """The dark modules as horizontal runs: (column, row, length)."""
    for row, cells in enumerate(matrix):
        start = None
        for column, dark in enumerate([*cells, 0]):
            if dark and start is None:
                start = column
            elif not dark and start is not None:
                yield start, row, column - start
                start = None


def qr_svg(text: str, *, label: str) -> str:
    """`text` as a QR code, an inline SVG drawn as the cards draw theirs (a player's key on the
    sign-up page, decision record 0053)."""
    matrix = qr_matrix(text)
    modules = len(matrix) + 2 * QUIET_ZONE
    path = "".join(
        f"M{x + QUIET_ZONE} {y + QUIET_ZONE}h{length}v1h-{length}z"
        for x, y, length in dark_runs(matrix)
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {modules} {modules}" '
        f'role="img" aria-label="{escape(label)}" shape-rendering="crispEdges">'
        f'<rect width="{modules}" height="{modules}" fill="#fff"/>'
        f'<path d="{path}" fill="#000"/></svg>'
    )


@dataclass(frozen=True)
class CardText:
    tournament: str
    table: str
    scan: str
    valid: str


def card_text(card: TableCard) -> CardText:
    until = formats.date_format(timezone.localtime(card.expires_at), "DATETIME_FORMAT")
    return CardText(
        tournament=card.tournament,
        table=gettext("Table %(number)s") % {"number": card.table},
        scan=gettext("Scan to score this table"),
        valid=gettext("Valid until %(moment)s · key %(prefix)s…")
        % {"moment": until, "prefix": card.prefix},
    )


def table_card_svg(card: TableCard) -> str:
    """The card as a standalone SVG image, A6 in millimetres."""
    text = card_text(card)
    matrix = qr_matrix(card.url)
    modules = len(matrix) + 2 * QUIET_ZONE
    scale = QR_SIZE_MM / modules
    left = (CARD_WIDTH_MM - QR_SIZE_MM) / 2
    path = "".join(f"M{x} {y}h{length}v1h-{length}z" for x, y, length in dark_runs(matrix))
    middle = CARD_WIDTH_MM / 2
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" '
        f'width="{CARD_WIDTH_MM}mm" height="{CARD_HEIGHT_MM}mm" '
        f'viewBox="0 0 {CARD_WIDTH_MM} {CARD_HEIGHT_MM}" role="img" '
        f'aria-label="{escape(text.table)}, {escape(text.tournament)}">'
        f'<rect width="{CARD_WIDTH_MM}" height="{CARD_HEIGHT_MM}" fill="#fff" stroke="#999" '
        'stroke-width=".3"/>'
        '<g font-family="Helvetica, Arial, sans-serif" text-anchor="middle" fill="#000">'
        f'<text x="{middle}" y="14" font-size="6">{escape(text.tournament)}</text>'
        f'<text x="{middle}" y="31" font-size="15" font-weight="bold">{escape(text.table)}</text>'
        "</g>"
        f'<g transform="translate({left:.3f} {QR_TOP_MM}) scale({scale:.5f})">'
        f'<rect width="{modules}" height="{modules}" fill="#fff"/>'
        f'<path class="qr" transform="translate({QUIET_ZONE} {QUIET_ZONE})" d="{path}" '
        'fill="#000" shape-rendering="crispEdges"/></g>'
        '<g font-family="Helvetica, Arial, sans-serif" text-anchor="middle" fill="#000">'
        f'<text x="{middle}" y="{QR_TOP_MM + QR_SIZE_MM + 8}" font-size="5">'
        f"{escape(text.scan)}</text>"
        f'<text x="{middle}" y="{CARD_HEIGHT_MM - 8}" font-size="3">{escape(text.valid)}</text>'
        "</g></svg>"
    )


def pdf_text(value: str) -> bytes:
    """A PDF string in Helvetica's WinAnsi encoding (what it cannot draw becomes '?')."""
    encoded = value.encode("cp1252", errors="replace")
    escaped = encoded.replace(b"\\", b"\\\\").replace(b"(", b"\\(").replace(b")", b"\\)")
    return b"(" + escaped + b")"


def table_card_pdf(card: TableCard) -> bytes:
    """The card as a one-page A6 PDF: its text in Helvetica, the QR code as filled squares."""
    return table_cards_pdf([card])


def table_cards_pdf(cards: Sequence[TableCard]) -> bytes:
    """The cards as one A6 PDF, a page per card in the order given."""
    return pdf_document(
        CARD_WIDTH_MM * MM_IN_POINTS,
        CARD_HEIGHT_MM * MM_IN_POINTS,
        [card_content(card) for card in cards],
    )


def card_content(card: TableCard) -> bytes:
    """A card's page: its text in Helvetica, the QR code as filled squares."""
    text = card_text(card)
    width, height = CARD_WIDTH_MM * MM_IN_POINTS, CARD_HEIGHT_MM * MM_IN_POINTS
    matrix = qr_matrix(card.url)
    module = QR_SIZE_MM * MM_IN_POINTS / (len(matrix) + 2 * QUIET_ZONE)
    left = (width - QR_SIZE_MM * MM_IN_POINTS) / 2 + QUIET_ZONE * module
    top = height - QR_TOP_MM * MM_IN_POINTS - QUIET_ZONE * module
    margin = 12 * MM_IN_POINTS
    lines = [
        (b"/F1 12 Tf", height - 14 * MM_IN_POINTS, text.tournament),
        (b"/F2 30 Tf", height - 31 * MM_IN_POINTS, text.table),
        (b"/F1 13 Tf", height - (QR_TOP_MM + QR_SIZE_MM + 8) * MM_IN_POINTS, text.scan),
        (b"/F1 7 Tf", 8 * MM_IN_POINTS, text.valid),
    ]
    content = b"".join(
        b"BT %s %.2f %.2f Td %s Tj ET\n" % (font, margin, y, pdf_text(line))
        for font, y, line in lines
    )
    content += b"0 g\n" + b"".join(
        b"%.3f %.3f %.3f %.3f re\n"
        % (left + x * module, top - (y + 1) * module, length * module, module)
        for x, y, length in dark_runs(matrix)
    )
    return content + b"f\n"


FONTS_AND_PAGES = 4
"""The objects before the pages': the catalog, the page tree and the two fonts."""


def pdf_document(width: float, height: float, pages: Sequence[bytes]) -> bytes:
    """A PDF 1.4 file of pages of one size, one content stream each, with Helvetica and
    Helvetica-Bold."""
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /%s /Encoding /WinAnsiEncoding >>"
    page_numbers = [FONTS_AND_PAGES + 1 + 2 * index for index in range(len(pages))]
    kids = b" ".join(b"%d 0 R" % number for number in page_numbers)
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, len(pages)),
        font % b"Helvetica",
        font % b"Helvetica-Bold",
    ]
    for number, content in zip(page_numbers, pages, strict=True):
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %.2f %.2f] "
            b"/Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents %d 0 R >>"
            % (width, height, number + 1)
        )
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(content), content))
    document = b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(document))
        document += b"%d 0 obj\n%s\nendobj\n" % (number, body)
    xref = len(document)
    document += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    document += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    document += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1,
        xref,
    )
    return document
