"""Endpoint URLs: what is sent (credentials kept) and what is shown or stored (credentials stripped).

`--api-base https://user:pw@host/v1?api-key=K` must reach the server as given, but the password and
the key must appear in no message, file or store key: every message names `public_url(...)`, the store
identity uses it, and a path is inserted before the query (`.../v1/chat/completions?api-key=K`, not
`...?api-key=K/chat/completions`).
"""

from __future__ import annotations

import base64
import urllib.parse

# Query parameter names that carry credentials (Azure `api-key`, Google `key`, SAS `sig`, `token`, ...).
_SECRET_PARAMS = ("key", "token", "secret", "sig", "password", "auth", "credential")


def _is_secret(name: str) -> bool:
    return any(s in name.lower() for s in _SECRET_PARAMS)


def public_url(url: str) -> str:
    """The URL without user:password@ and without query parameters that look like credentials."""
    if not url:
        return ""
    parts = urllib.parse.urlsplit(url)
    host = parts.hostname or ""
    try:
        port = parts.port
    except ValueError:  # a port that is not a number: show none of it
        port = None
    netloc = host + (f":{port}" if port else "")
    query = [(k, v) for k, v in urllib.parse.parse_qsl(parts.query, keep_blank_values=True) if not _is_secret(k)]
    clean = parts._replace(netloc=netloc, query=urllib.parse.urlencode(query), fragment="")
    return urllib.parse.urlunsplit(clean).rstrip("/")


def with_path(base: str, path: str) -> str:
    """base + path, the path going before base's query string (credentials in it are kept)."""
    parts = urllib.parse.urlsplit(base)
    return urllib.parse.urlunsplit(parts._replace(path=parts.path.rstrip("/") + path))


def url_secrets(url: str) -> tuple[str, ...]:
    """The credential values in url (password, credential-looking query values), to redact from text
    the server sends back."""
    parts = urllib.parse.urlsplit(url)
    found = [parts.password] if parts.password else []
    found += [v for k, v in urllib.parse.parse_qsl(parts.query) if _is_secret(k) and len(v) >= 4]
    return tuple(found)


def without_userinfo(url: str) -> tuple[str, dict[str, str]]:
    """(url without user:password@, a Basic Authorization header for them) — for clients such as
    urllib that do not read credentials from the URL."""
    parts = urllib.parse.urlsplit(url)
    if parts.username is None:
        return url, {}
    netloc = parts.netloc.rsplit("@", 1)[1]
    pair = f"{urllib.parse.unquote(parts.username)}:{urllib.parse.unquote(parts.password or '')}"
    header = {"Authorization": "Basic " + base64.b64encode(pair.encode("utf-8")).decode("ascii")}
    return urllib.parse.urlunsplit(parts._replace(netloc=netloc)), header
