"""What the GPU tests' sandboxes share from the device machine's environment.

The device machine's processes sit in a non-root cgroup v2 directory, where a sandbox's
cgroup layer is missing unless scripts/device/cgroup_v2.sh delegated a directory to the tests
(KRL_TEST_CGROUP_PARENT); then every evaluator these tests build puts its sandboxes there.
"""

from __future__ import annotations

import os

CGROUP = (
    {"cgroup_parent": os.environ["KRL_TEST_CGROUP_PARENT"]}
    if os.environ.get("KRL_TEST_CGROUP_PARENT")
    else {}
)
