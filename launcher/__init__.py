"""The launcher: the `krl` command, and `krl run`, which bootstraps and supervises every role
on one machine (run lock, restarts, summary), and `krl keys`.

It starts roles as processes (`python -m launcher.cli ROLE`) and names their modules as
strings; of the roles it imports only learner/ledger.py, to read the hub's ledger into
summary.json. No role imports it.
"""
