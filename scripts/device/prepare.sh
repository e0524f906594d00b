#!/usr/bin/env bash
# Fill the git-ignored folders the device machine's calls carry (`carry: [".whl", ".device"]`):
# the cp312 wheels its image lacks and bubblewrap's .deb (the sandbox). Run here, from the
# repository root, before a GPU session; about a minute. The image has torch, triton,
# transformers, msgpack and prometheus-client already.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
mkdir -p .whl .device
python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
  --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64 \
  --platform manylinux2014_x86_64 --platform manylinux1_x86_64 -d .whl \
  pyzmq msgspec pydantic pydantic-core annotated-types typing-inspection blake3 hjson 'typing_extensions>=4.16'
(cd .device && rm -f bubblewrap_*.deb && apt-get download bubblewrap >/dev/null)
du -sh .whl .device
