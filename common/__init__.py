"""Shared by every krl role: config, wire messages, transport, metrics, logging, problem loading.

Roles (actor, learner, evaluator) never import each other, but for the evaluator's client stub
(evaluator/client.py); what they share lives here. The `krl` command and `krl run` are the
launcher's (launcher/).
"""
