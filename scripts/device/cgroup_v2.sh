#!/usr/bin/env bash
# Sourced on the device machine: its processes sit in a non-root cgroup v2 directory, where a
# sandbox's cgroup cannot be made (v2 lets a cgroup holding processes enable no controllers
# for its children). Move this cgroup's processes into a leaf, enable memory and pids below
# it, and hand the tests a delegated directory (KRL_TEST_CGROUP_PARENT, sandbox.cgroup_parent)
# as a systemd `Delegate=yes` unit would. Prints what it did; leaves the variable unset if
# the host refuses any step (the tests then run without the cgroup layer, as before).
own=/sys/fs/cgroup$(awk -F: '$1 == "0" {print $3}' /proc/self/cgroup)
if mkdir -p "$own/shell" "$own/krl" 2>/dev/null; then
  for p in $(cat "$own/cgroup.procs"); do echo "$p" > "$own/shell/cgroup.procs" 2>/dev/null; done
  if echo "+memory +pids" > "$own/cgroup.subtree_control" 2>/dev/null \
     && echo "+memory +pids" > "$own/krl/cgroup.subtree_control" 2>/dev/null; then
    export KRL_TEST_CGROUP_PARENT="$own/krl"
  fi
fi
echo "cgroup v2: own=$own parent=${KRL_TEST_CGROUP_PARENT:-none} left=$(wc -l < "$own/cgroup.procs")"
