"""evaluator/candidate_reach.py: the storages a candidate's own objects keep alive, which
kept_work.Kept charges to every profiled forward, and not those only the harness holds
(its launch records held a forward's scratch when it returned: honest coverage fell in the
session-54 suite)."""
from __future__ import annotations

import types

import torch

from evaluator.aten_facts import storage_key
from evaluator.candidate_reach import held_storages

SOURCE = '''
import torch
import torch.nn as nn

TABLE = torch.arange(8.0)


def _cached():
    box = torch.ones(4)

    def get():
        return box
    return get


GET = _cached()


class ModelNew(nn.Module):
    CLASS_TABLE = torch.zeros(3)

    def __init__(self):
        super().__init__()
        self.register_buffer("buf", torch.full((5,), 2.0))
        self.plain = [torch.empty(6)]
'''


class Forged:  # a candidate's class that claims to be the evaluator's
    __module__ = "evaluator.launch_hook"

    def __init__(self, tensors):
        self.tensors = tensors


def _candidate():
    module = types.ModuleType("candidate_reach_case")
    exec(compile(SOURCE, "candidate.py", "exec"), module.__dict__)
    return module, module.ModelNew()


def test_the_candidates_model_globals_closures_and_classes_are_held():
    module, model = _candidate()
    held = held_storages([model, module], module)
    for t in (model.buf, model.plain[0], module.TABLE, module.GET(), module.ModelNew.CLASS_TABLE):
        assert storage_key(t) in held


def test_what_only_the_harness_or_another_module_holds_is_not_held():
    module, model = _candidate()
    from evaluator.construction_watch import ConstructionWatch

    scratch, foreign = torch.empty(7), torch.empty(9)
    records = ConstructionWatch()  # an object of the evaluator's own (as its launch records are)
    records.computed.append(scratch)
    model.records = records
    torch.nn.functional.__dict__["_krl_test_foreign"] = foreign  # another module's global
    try:
        module.F = torch.nn.functional
        held = held_storages([model, module], module)
    finally:
        del torch.nn.functional.__dict__["_krl_test_foreign"]
    assert storage_key(scratch) not in held and storage_key(foreign) not in held
    assert storage_key(model.buf) in held


def test_a_class_that_claims_the_evaluators_module_and_a_walk_cut_short_hide_nothing():
    """Attacks on the walk (session 54): a candidate class naming an evaluator module in
    `__module__` is still the candidate's (the evaluator's module does not hold it by that
    name), and a model that piles more objects than MAX_OBJECTS in front of its table ends the
    walk, which then answers None (every live storage counts as held) instead of a partial set."""
    from evaluator import candidate_reach

    module, model = _candidate()
    table = torch.empty(11)
    model.box = Forged([table])
    assert storage_key(table) in held_storages([model, module], module)
    model.pile = [[i] for i in range(candidate_reach.MAX_OBJECTS)]
    assert held_storages([model, module], module) is None


DECORATED = '''
import torch
import torch.nn as nn


@torch.no_grad()
def cached(x, box={}):
    if "t" not in box:
        box["t"] = x * 2
    return box["t"]


def _source():
    cell = []

    @torch.no_grad()
    def get(x):
        if not cell:
            cell.append(x + 1)
        return cell[0]
    return get


GET = _source()


class ModelNew(nn.Module):
    pass
'''


def test_what_a_library_decorators_wrapper_holds_for_the_candidate_is_held():
    """Red team rt72: `@torch.no_grad()` answers a function of torch's (its globals are
    torch.utils._contextlib's), whose closure holds the candidate's function; a table in that
    function's default dict or in a cell of its closure was held by nothing the walk entered."""
    module = types.ModuleType("candidate_reach_decorated")
    exec(compile(DECORATED, "candidate.py", "exec"), module.__dict__)
    model = module.ModelNew()
    a, b = module.cached(torch.ones(3)), module.GET(torch.ones(5))
    held = held_storages([model, module], module)
    assert storage_key(a) in held and storage_key(b) in held


def test_another_modules_function_is_entered_but_not_its_globals():
    module, model = _candidate()
    foreign = torch.empty(13)
    torch.nn.functional.__dict__["_krl_test_foreign"] = foreign
    try:
        model.fn = torch.nn.functional.relu  # a function of torch's: its globals are torch's
        held = held_storages([model, module], module)
    finally:
        del torch.nn.functional.__dict__["_krl_test_foreign"]
    assert storage_key(foreign) not in held and storage_key(model.buf) in held


def test_a_class_or_wrapper_made_at_run_time_naming_another_module_hides_nothing():
    """Red team rt73: `__module__` is a string a factory takes from its caller, and a library's
    wrapper made in a forward is a function of that library's globals. A namedtuple made with
    module="torch" holding a table as its field's default, and `torch.no_grad()` wrapped around a
    nested def whose closure holds one, kept the table from the walk (each ok under strict at
    coverage 1.0). A class counts as another module's only where that module holds it by its
    qualified name; a foreign function's closure, defaults and attributes are walked."""
    import collections

    module, model = _candidate()
    in_default, in_closure = torch.empty(12), torch.empty(13)
    model.held = collections.namedtuple("Tensor", ["table"], defaults=[in_default], module="torch")

    def get():
        return in_closure

    model.get = torch.no_grad()(get)
    held = held_storages([model, module], module)
    assert storage_key(in_default) in held and storage_key(in_closure) in held


def test_a_table_set_as_an_attribute_of_a_held_tensor_is_held():
    """Red team rt73: `self.held.bias = table` (a NESTED_STORES name) on a plain tensor the
    model holds put the table in the tensor's __dict__, which a walk taking tensors as leaves
    never entered (ok under strict at coverage 1.0)."""
    module, model = _candidate()
    table = torch.empty(15)
    model.buf.bias = table
    assert storage_key(table) in held_storages([model, module], module)
