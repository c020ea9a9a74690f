"""The rooms on Binder: this file is <server>/panel/rooms (jupyter-panel-proxy.yml), the page
``wargame serve --rooms`` serves at / (wargame.class_server.BINDER_PAGES)."""

import panel as pn

from wargame.class_server import binder_page

pn.extension()
binder_page("rooms").servable()
