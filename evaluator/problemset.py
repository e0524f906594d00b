"""Re-export of common.problemset (the loader is shared by every role); kept while
evaluator modules move their imports to common.problemset."""
from common.problemset import *  # noqa: F401,F403
from common.problemset import (  # noqa: F401
    BUILTIN_DIR, Problem, ProblemError, ProblemSet, UnknownProblemError, builtin_problem,
    builtin_problems, exec_problem_source, load_problems, validate_problem_source)
