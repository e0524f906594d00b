#!/usr/bin/env bash
# Sourced on the device machine (repository root): installs the carried wheels into /tmp/site,
# unpacks bubblewrap, and sets the environment the GPU tests expect. See prepare.sh.
pip install --quiet --no-deps --target /tmp/site .whl/*.whl
mkdir -p /tmp/bw && dpkg -x .device/bubblewrap_*.deb /tmp/bw
export PATH=/tmp/bw/usr/bin:$PATH PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1 TORCH_CUDA_ARCH_LIST=9.0 \
  NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1 NVSHMEM_DISABLE_NVLS=1
