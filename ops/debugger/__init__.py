"""The replay debugger: step through a logged game in the browser (board, talk, deals, trust at
every seq), from one log, a folder of logs or a tournament folder, and fork it from any point.

    detente replay serve LOG|DIR [--port 8000] [--host 127.0.0.1] [--out DIR]
    detente replay page LOG --out game.html [--player N] [--game ID]

Modules: `pov` (what a seat observed: the one rule), `game` (one game indexed for stepping:
fold snapshots, boards, marks, messages, ledger), `source` (where games come from and the game
list), `api` (the JSON answers), `server` (the local web app), `page` (the HTML shell and the
self-contained export), `assets` (the viewer's JS and CSS, read from `static/`), `forking` (what-if runs), `cli`,
`screenshots` (the docs' pictures of every board).

A game's board module (its plugin's `board` reference) may define, next to `board(state, player)`,
the hooks `phase`, `deals`, `seat_names` and `seat_colours` (see `game.hooks`).
"""
