"""Shared by every krl role: config, wire messages, transport, metrics, logging, CLI.

Roles (actor, learner, evaluator) never import each other; what they share lives here.
"""
