"""`nonosat serve`: a page where authors draw and check puzzles, and a JSON API for puzzle sites.

    pip install 'nonosat[web]'
    nonosat serve            # http://127.0.0.1:8000

Starlette (routes) and uvicorn (the server) are imported only here, never by the rest of
nonosat. A request is read and checked in the server (`api`), then answered in a worker process
from the fork server (`pool`), which runs the same library calls as the command line (`jobs`)
and is killed when its client leaves or its time is up. `settings` holds every limit; `app`
puts it together; `openapi` describes the API; `static/` is the page (plain HTML, CSS and
JavaScript, served from the package).
"""
