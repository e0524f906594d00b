"""CurveZMQ: public-key authentication and encryption for every krl socket.

`krl keys DIR` writes one server key pair and one or more client key pairs:

    DIR/server.key, DIR/server.key_secret        servers (hub, broker) use these
    DIR/clients/<name>.key, <name>.key_secret    each client identity (actors, workers)
    DIR/authorized/<name>.key                    public keys servers accept

A server socket accepts only clients whose public key is in DIR/authorized (checked
by a ZAP authenticator thread, one per process); a client socket pins the server's
public key. Secret key files are written with mode 0600.
"""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import zmq
import zmq.auth
from zmq.auth.thread import ThreadAuthenticator

from common.exits import StartError

_auth_lock = threading.Lock()
_authenticators: dict[int, ThreadAuthenticator] = {}


class KeysError(StartError, ValueError):
    """The key directory is missing a file or holds an unreadable key (a restart cannot
    fix that: the process exits as a start error)."""


def generate(keys_dir: Path, clients: list[str]) -> None:
    """Create the layout above; existing keys are kept, so re-running adds clients."""
    keys_dir = Path(keys_dir)
    (keys_dir / "clients").mkdir(parents=True, exist_ok=True)
    (keys_dir / "authorized").mkdir(exist_ok=True)
    if not (keys_dir / "server.key_secret").exists():
        zmq.auth.create_certificates(str(keys_dir), "server")
    for name in clients:
        if not (keys_dir / "clients" / f"{name}.key_secret").exists():
            zmq.auth.create_certificates(str(keys_dir / "clients"), name)
        shutil.copy(keys_dir / "clients" / f"{name}.key", keys_dir / "authorized" / f"{name}.key")
    for secret in keys_dir.rglob("*.key_secret"):
        os.chmod(secret, 0o600)


def _load(path: Path, secret: bool) -> tuple[bytes, bytes | None]:
    if not path.exists():
        raise KeysError(f"CurveZMQ key file {path} is missing; create keys with `krl keys DIR`")
    try:
        return zmq.auth.load_certificate(str(path))
    except (ValueError, OSError) as exc:
        raise KeysError(f"CurveZMQ key file {path} is unreadable: {exc}") from None


def _ensure_authenticator(ctx: zmq.Context, keys_dir: Path) -> None:
    with _auth_lock:
        if id(ctx) in _authenticators:
            return
        auth = ThreadAuthenticator(ctx)
        auth.start()
        auth.configure_curve(domain="*", location=str(keys_dir / "authorized"))
        _authenticators[id(ctx)] = auth


def configure(sock: zmq.Socket, keys_dir: Path, *, server: bool) -> None:
    """Turn on CurveZMQ for `sock` (before bind/connect)."""
    keys_dir = Path(keys_dir)
    if server:
        public, secret = _load(keys_dir / "server.key_secret", True)
        _ensure_authenticator(sock.context, keys_dir)
        sock.curve_secretkey, sock.curve_publickey = secret, public
        sock.curve_server = True
        return
    server_public, _ = _load(keys_dir / "server.key", False)
    clients = sorted((keys_dir / "clients").glob("*.key_secret"))
    if not clients:
        raise KeysError(f"no client key pair in {keys_dir / 'clients'}; run `krl keys {keys_dir}`")
    public, secret = _load(clients[0], True)
    sock.curve_secretkey, sock.curve_publickey = secret, public
    sock.curve_serverkey = server_public
