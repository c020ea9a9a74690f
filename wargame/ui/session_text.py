"""Words of what keeps a session's game (issue #31): the Load button's size check
(``wargame.ui.upload``), the game kept in the browser and offered back
(``wargame.ui.keeper``), and the notice of a page whose server went away
(``wargame.ui.connection``). English here, Portuguese in the catalogue."""

from __future__ import annotations

from wargame.i18n import Catalogue

SESSION = Catalogue("ui.session", {
    "upload.too_big": "That file is larger than the {mb} MB a save may be: it was not sent. "
                      "Choose a save file of this game.",
    "upload.failed": "The file could not be sent: {reason}",
    "upload.bad": "its parts arrived out of order; try again",
    "upload.choose": "Choose a file",
    "seed_range": "A seed is a whole number from -2**63 to 2**63 - 1, the largest a save "
                  "holds; {seed} is not: the game goes on.",
    "keep.continue": "Continue the game",
    "keep.discard": "Start afresh",
    "keep.discarded": "The kept game was set aside: this is a new game.",
    "keep.full": "This browser has no room left to keep the game as you play: save it to a file "
                 "now and then (Save).",
    "lost.waiting": "The server went away: this page waits for it and reconnects by itself "
                    "when it is back. Nothing you click now is sent.",
    "lost.back": "The server is back: reloading this page...",
}, plurals={
    # counted (wargame.i18n Catalogue.plural)
    "keep.offer": ("A game of this scenario was kept in this browser ({n} action). Continue it?",
                   "A game of this scenario was kept in this browser ({n} actions). "
                   "Continue it?"),
})
