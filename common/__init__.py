"""Shared by every krl role: config, wire messages, transport, metrics, logging, problem loading.

Roles (actor, learner, evaluator) never import each other; what they share lives here (the
evaluator service's client, common/eval_client.py, which the actor uses, included). The `krl`
command and `krl run` are the launcher's (launcher/).
"""
