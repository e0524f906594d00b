#!/usr/bin/env bash
# Sourced on the device machine: its processes sit in a non-root cgroup v2 directory, where a
# sandbox's cgroup cannot be made (v2 lets a cgroup holding processes enable no controllers
# for its children). Move this cgroup's processes into a leaf, enable memory (and pids) below
# it, and hand the tests a delegated directory (KRL_TEST_CGROUP_PARENT, sandbox.cgroup_parent)
# as a systemd `Delegate=yes` unit would. Prints what it did and why a step failed; leaves the
# variable unset if the host refuses any step (the tests then run without the cgroup layer).
own=/sys/fs/cgroup$(awk -F: '$1 == "0" {print $3}' /proc/self/cgroup)
echo "cgroup v2: own=$own offers [$(cat "$own/cgroup.controllers" 2>&1)] enables [$(cat "$own/cgroup.subtree_control" 2>&1)]"
if mkdir -p "$own/shell" "$own/krl"; then
  for _ in 1 2 3; do  # processes forked while the first pass ran land in own too
    while read -r p; do echo "$p" > "$own/shell/cgroup.procs" 2>/dev/null; done < "$own/cgroup.procs"
  done
  while read -r p; do echo "cgroup v2: pid $p ($(cat /proc/"$p"/comm 2>&1)) stays in own"; done < "$own/cgroup.procs"
  for c in memory pids; do echo "+$c" > "$own/cgroup.subtree_control" || echo "cgroup v2: +$c refused below $own"; done
  for c in memory pids; do echo "+$c" > "$own/krl/cgroup.subtree_control" || echo "cgroup v2: +$c refused below krl"; done
  if grep -q memory "$own/krl/cgroup.subtree_control"; then  # pids where offered (evaluator.cgroup)
    export KRL_TEST_CGROUP_PARENT="$own/krl"
  fi
fi
echo "cgroup v2: parent=${KRL_TEST_CGROUP_PARENT:-none} left in own=$(wc -l < "$own/cgroup.procs")"
