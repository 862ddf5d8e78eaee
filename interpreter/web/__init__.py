"""The web table (`gamedef serve`): any game in a browser, its board drawn from its
declarations, people at one table from several browsers (a private link per seat),
AI seats, live updates, and every move kept in SQLite. Above adapters, below cli;
needs the `web` extra (starlette, uvicorn, jinja2).
"""
