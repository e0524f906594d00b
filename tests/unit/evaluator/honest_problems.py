"""honest/ files that run whole through the evaluator, and the built-in problem each solves.

Read by test_static_honest.py (on the CPU interpreter, at the sizes given here) and by
tests/gpu/test_honest_gpu.py (on a GPU, at the problem's own GPU sizes). Plain data, no test
imports, so either can load it.
"""
from __future__ import annotations

# file -> (built-in problem, CPU sizes: None keeps the problem's own). The CPU-fallback file
# runs its kernels (is_cuda answers True in a CPU candidate child). Autotuned files run: the CPU child
# draws one of an autotuner's configs that fit an sm_90 block instead of asking for a GPU driver to time them.
FULL = {
    # unsloth's torch_gpu_device factory around the launch: a def returning nullcontext(),
    # followed by the `with` check (honest round s50k)
    "s50k_01_silu_unsloth_fg_long_indexing_gpu_device_nullcontext.py": ("activation/silu", {"batch_size": 3, "dim": 1100}),
    # libdevice (by module and through tl.extra.cuda): numpy versions in a CPU child, where
    # Triton's interpreter returned None for them (honest round, session 20)
    "l1_gelu_libdevice_autotune.py": ("activation/gelu", {"batch_size": 4, "dim": 300}),
    "l1_gelu_tanh_cuda_libdevice.py": ("activation/gelu_tanh", {"batch_size": 4, "dim": 300}),
    "l1_relu_simple.py": ("activation/relu", {"batch_size": 4, "dim": 300}),
    # a device function handed to the launch at a tl.constexpr parameter (session 40): the GPU
    # front end's check compiles it as the JITFunction the GPU launcher would be handed
    "s40_leaky_relu_activation_as_constexpr.py": ("activation/leaky_relu", {"batch_size": 4, "dim": 300}),
    # einops' rearrange around the launch (honest round s40: fla and mamba shape tensors so)
    "s41_softmax_einops_rearranged_rows.py": ("softmax/softmax", {"batch_size": 4, "dim": 300}),
    # unsloth's version gate on the installed Triton picks the tanh (the other arm is dead)
    "s41_gelu_tanh_unsloth_version_gated_tanh.py": ("activation/gelu_tanh", {"batch_size": 4, "dim": 300}),
    # Liger-Kernel's cross entropy verbatim: the target's logit loaded as a scalar, then stored
    # over in place after block-wide tl.max/tl.sum, which meet across warps (honest round s41:
    # refused as a race of its lanes until cross-warp reductions counted as barriers)
    # tl.tensor's member forms of Triton's @jit functions (`x.max(axis=0)`, `x.sigmoid()`): the GPU
    # front end's check compiled their interpreted versions (honest round s45: compile_error)
    "s45_softmax_tensor_member_reductions.py": ("softmax/softmax", {"batch_size": 4, "dim": 300}),
    "s45_silu_tensor_member_sigmoid.py": ("activation/silu", {"batch_size": 4, "dim": 300}),
    # Triton tutorial 02's `from triton.runtime import driver` and its persistent grid at the H200's
    # 132 SMs (honest round s45: the import was refused)
    "s45_softmax_tutorial02_from_runtime_import_driver.py": ("softmax/softmax", {"batch_size": 4, "dim": 300}),
    "s53_tutorial02_verbatim_warmup_occupancy.py": ("softmax/softmax", {"batch_size": 4, "dim": 300}),
    # inline PTX (tanh.approx) run on the CPU with its documented error (evaluator.interpreter_asm)
    "s45_gelu_tanh_inline_asm_tanh_approx.py": ("activation/gelu_tanh", {"batch_size": 4, "dim": 300}),
    "s45_sigmoid_bf16_tanh_approx_inline_asm.py": ("activation/sigmoid_bf16", {"batch_size": 4, "dim": 300}),
    # SGLang's autotune object applied to a kernel under a new name (honest round s44)
    "s45_rmsnorm_sglang_autotune_alias_twin.py": ("norm/rmsnorm", {"batch_size": 2, "seq_len": 3, "hidden": 200}),
    "s42_cross_entropy_liger_inplace_grad.py": ("loss/cross_entropy", {"batch_size": 8, "num_classes": 700}),
    # autotuned partial sums, one per program, so the workspace each config writes differs in
    # size and content while the loss is the same (mamba_ssm's and attorch's reductions): the
    # forward is what is held to agree across configs (honest round s46: runtime_error)
    "s39_hinge_autotuned_partials_best_config.py": ("loss/hinge", {"batch_size": 4, "dim": 700}),
    "s46_smooth_l1_attorch_ploss_best_config_partials.py": ("loss/smooth_l1", {"batch_size": 4, "dim": 700}),
    # flash-linear-attention's input_guard: a functools.wraps decorator handing on *args and
    # **kwargs made contiguous (honest round s46: refused as a hack)
    "s46_l2norm_fla_input_guard.py": ("norm/l2_normalize", None),
    # @triton.autotune over @triton.heuristics with a grid reading a heuristic's value: the CPU's
    # benchmark of the configs runs the heuristics each run, as Heuristics.run does on the GPU
    # (honest round s46: KeyError 'ROWS')
    "s47_softmax_autotune_over_heuristics_grid_reads_rows.py": ("softmax/softmax", {"batch_size": 4, "dim": 300}),
    # import-time probes in a module-level try (capability, int(os.getenv), finfo, the Triton
    # version parsed, torch.device): refused as switches of the handler before (honest round s47)
    "s47_01_layernorm_liger_module_try_probes.py": ("norm/layernorm", {"batch_size": 3, "dim": 700}),
    # two kernels of its own and an autotuner with eleven configs that fit: the knock-out round's
    # checking forwards moved the CPU's rotation past what the trials ran, and the timed forwards
    # launched a variant no trial had (honest round s47: timed_path_differs)
    "s47_02_linear_softmax_autotuned_gemm_twelve_configs.py": ("fused/matmul_softmax", None),
    # honest round s48: an infinite ex2.approx answer moved by its error gave NaN (x ~ -1000 on
    # the x1e3 trial); a Welford combine calling a straight-line jit helper by name ran element
    # by element (a timeout at the CPU sizes)
    "s48_14_silu_ex2_approx_inline_asm.py": ("activation/silu", {"batch_size": 4, "dim": 300}),
    "s48_26_layernorm_welford_combine_calls_jit_helper.py": ("norm/layernorm", {"batch_size": 3, "dim": 700}),
    # honest round s49: `with torch.cuda.nvtx.range("name"):` around the launch (vLLM, Megatron)
    # was refused as a context manager off the allowlist; tutorial 06's host TensorDescriptor
    # attention at TF32 (ok on the first run)
    "s49_28_mean_dim_cached_output_buffer_nvtx_range_empty_guard.py": ("reduction/mean_dim", {"batch_size": 8, "dim": 700}),
    "s49_09_sdpa_tutorial06_host_tensor_descriptor_tf32.py": ("attention/sdpa", None),
    # honest round s49 (fixed in session 50): kernels kept as @staticmethod members of a class
    # with other members, launched on the class or a classmethod's cls (static_member_kernels)
    "s49_16_elu_class_staticmethod_jit_kernel_dtype_dispatch.py": ("activation/elu", {"batch_size": 4, "dim": 300}),
    "s50a_01_leaky_relu_autograd_function_member_kernels_fwd_bwd.py": ("activation/leaky_relu", {"batch_size": 4, "dim": 300}),
    "s50a_02_rmsnorm_vllm_style_ops_class_classmethod_launchers.py": ("norm/rmsnorm", {"batch_size": 2, "seq_len": 3, "hidden": 200}),
    # honest round s47: public idioms (each file's first lines name them); all ok on the first run
    # but the attorch cross entropy, whose grid reads a heuristic's value under autotune
    # (runtime_error on the CPU: a config's host side called the grid without the heuristics)
    **{f"s47_{stem}.py": (problem, None) for stem, problem in {
        "03_gelu_unsloth_autograd_cpu_fallback": "activation/gelu",
        "04_rmsnorm_autotune_heuristics_even_n": "norm/rmsnorm",
        "05_linear_relu_cublas_addmm_triton_epilogue_strided": "matmul/matmul_bias_relu",
        "06_softmax_online_two_pass_looped_blocks": "softmax/softmax",
        "07_cross_entropy_attorch_batch_heuristics": "loss/cross_entropy",
        "08_causal_sdpa_fp16_flash_tutorial_stages": "attention/causal_sdpa_fp16",
        "09_conv1d_bias_relu_cudnn_inplace_epilogue": "conv/conv1d_bias_relu",
        "10_mse_liger_two_stage_partials_reduction_mean": "loss/mse",
        "11_batchnorm_inference_folded_scale_shift_nchw": "norm/batchnorm_inference",
        "12_cumsum_fla_chunk_scan_reverse_flag": "reduction/cumsum",
    }.items()},
    "l1_relu_with_main_block.py": ("activation/relu", {"batch_size": 4, "dim": 300}),
    "l1_softmax_tutorial.py": ("softmax/softmax", {"batch_size": 4, "dim": 300}),
    "l1_mish_tl_math.py": ("activation/mish", {"batch_size": 4, "dim": 300}),
    "l1_rmsnorm_unsloth_style.py": ("norm/rmsnorm", {"batch_size": 2, "seq_len": 3, "hidden": 200}),
    "l1_sum_dim_tl_reduce.py": ("reduction/sum_dim", {"batch_size": 2, "dim1": 40, "dim2": 70}),
    "l2_linear_bias_relu_own_params.py": ("matmul/matmul_bias_relu", None),
    "l2_linear_relu_scale_cublas_epilogue.py": ("fused/linear_relu_scale", None),
    "l2_conv2d_bias_relu_cudnn.py": ("conv/conv2d_bias_relu", None),
    "l1_matmul_autotune_grouped.py": ("matmul/matmul", None),
    "l1_l2_normalize_cpu_fallback.py": ("norm/l2_normalize", None),
    "s12_03_softplus_warnings.py": ("activation/softplus", {"batch_size": 4, "dim": 300}),
    "s12_07_mish_fp16_dispatch.py": ("activation/mish", {"batch_size": 4, "dim": 300}),
    "s13_01_relu_liger_ensure_contiguous.py": ("activation/relu", {"batch_size": 4, "dim": 300}),
    "s13_02_relu_logger_module_try.py": ("activation/relu", {"batch_size": 4, "dim": 300}),
    # the tutorials' DEVICE = driver.active.get_active_torch_device(): "0 active drivers" on the CPU
    "s15_relu_tutorial_device.py": ("activation/relu", {"batch_size": 4, "dim": 300}),
    # a Triton argmax, values gathered by torch: the knock-out's random indices raise under 128
    "s15_max_dim_triton_argmax_torch_gather.py": ("reduction/max_dim", {"batch_size": 16, "dim": 100}),
    # a block mask & a scalar comparison: int32 in Triton's interpreter, made boolean by the guard
    "s17_relu_rowwise_scalar_mask.py": ("activation/relu", {"batch_size": 4, "dim": 300}),
    # a parameter's default read from a module-level int: the GPU compiler allows it
    "s18_relu_block_default_global.py": ("activation/relu", {"batch_size": 4, "dim": 300}),
    # `k.to(tl.int64)` of a tl.range loop variable: an int on the CPU before (AttributeError, honest
    # round, session 31); evaluator.interpreter_loops types it as the GPU's scalar tensor
    "s31_cumsum_loop_var_to_int64_carry.py": ("reduction/cumsum", None),
    # honest round, session 25: idioms the corpus lacked (each file's first line names them);
    # all were ok on the first run under both policies except where said
    **{f"s25_{stem}.py": spec for stem, spec in {
        "gelu_partial_no_grad_math_constexpr": ("activation/gelu", {"batch_size": 4, "dim": 300}),
        "layernorm_jit_helpers_tl_range_stages": ("norm/layernorm", {"batch_size": 3, "dim": 700}),
        "mean_dim_autotune_reset_to_zero_atomic": ("reduction/mean_dim", {"batch_size": 4, "dim": 1500}),
        "softplus_restore_value_inplace": ("activation/softplus", {"batch_size": 4, "dim": 300}),
        "axpby_fp16_dataclass_optional_out": ("elementwise/axpby_fp16", {"n_elements": 3000}),
        "sigmoid_bf16_flatten_int64_offsets": ("activation/sigmoid_bf16", {"batch_size": 4, "dim": 300}),
        "mul_broadcast_stride_args_2d_grid": ("elementwise/mul_broadcast", {"n_rows": 12, "n_cols": 300}),
        "scale_bias_super_explicit_launch_cache": ("elementwise/scale_bias", {"n_tokens": 8, "num_features": 300}),
        "relu_autotune_prune_configs_grid_lambda": ("activation/relu", {"batch_size": 4, "dim": 300}),
        "rmsnorm_logging_heuristics_view": ("norm/rmsnorm", {"batch_size": 2, "seq_len": 3, "hidden": 200}),
        "log_softmax_cpu_fallback_assert_contiguous": ("softmax/log_softmax", {"batch_size": 4, "dim": 700}),
        "conv1d_bias_relu_static_range_taps": ("conv/conv1d_bias_relu",
                                               {"batch_size": 1, "in_channels": 3, "out_channels": 6, "length": 40}),
        "matmul_residual_gemm_then_inplace_epilogue": ("matmul/matmul_residual", None),
        "hinge_partial_sums_tl_range_where": ("loss/hinge", {"batch_size": 8, "dim": 300}),
        "kl_div_two_classes_all_warnings": ("loss/kl_div", {"batch_size": 6, "dim": 300}),
        "batchnorm_inference_module_2d_grid_eps_default": ("norm/batchnorm_inference", None),
        "sum_dim_middle_axis_strides_2d_grid": ("reduction/sum_dim", None),
        "elu_print_init_tl_where": ("activation/elu", {"batch_size": 4, "dim": 300}),
        "groupnorm_group_program_id1_int64": ("norm/groupnorm", None),
        "linear_gelu_autotune_key_fused_erf": ("matmul/linear_gelu", None),
        "subtract_mean_static_range_chunks": ("reduction/subtract_mean", {"batch_size": 4, "dim": 1500}),
        "matmul_fp16_dtype_constexpr_arg_grid_def": ("matmul/matmul_fp16", {"M": 70, "K": 40, "N": 60}),
        "add_broadcast_star_inputs_data_ptr_align": ("elementwise/add_broadcast",
                                                     {"batch_size": 2, "channels": 4, "length": 300}),
        # `torch.empty(..., device="cuda")` under `if x.is_cuda:`: runtime_error on the CPU before
        # (is_cuda answered True, the device could not be named); the CPU child maps it now
        "silu_autotune_warmup_rep_device_literal": ("activation/silu", {"batch_size": 4, "dim": 300}),
    }.items()},
    # honest round, session 26: kernels of public repositories adapted in their own idioms (each
    # file's first line names the source); the first four were refused on the CPU before
    **{f"s26_{stem}.py": spec for stem, spec in {
        # get_dtype_min(inp.type.element_ty) reads dtype.value: the compiler's constexpr wrapper
        "argmax_dim_flaggems_tle_pid_dtype_min": ("reduction/argmax_dim", {"batch_size": 8, "dim": 300}),
        # device=torch.cuda.current_device(), a bare index: "Cannot access accelerator device"
        "causal_softmax_megatron_current_device_prealloc": ("softmax/causal_softmax",
                                                            {"batch_size": 1, "num_heads": 2, "seq_len": 32}),
        # logging.debug("GEMS CUMSUM"), a root-logger function: not on the allowlist before
        "cumsum_flaggems_3d_offsets_autotune_heuristics": ("reduction/cumsum", {"batch_size": 8, "dim": 300}),
        # `from torch.cuda.amp import custom_bwd, custom_fwd`: the module was refused as a whole
        "silu_attorch_act_func_string_custom_fwd": ("activation/silu", {"batch_size": 4, "dim": 300}),
        "layernorm_flaggems_row_blocks_cfggen_tuple_fn": ("norm/layernorm", {"batch_size": 4, "dim": 700}),
        "kl_div_liger_constexpr_reduction_modes": ("loss/kl_div", {"batch_size": 6, "dim": 300}),
        "mse_flaggems_enum_reduction_two_stage": ("loss/mse", {"batch_size": 6, "dim": 300}),
        "matmul_tutorial09_persistent_num_sms": ("matmul/matmul", {"M": 40, "K": 50, "N": 60}),
        # torch.is_autocast_enabled() picks the fp16 path: not on the allowlist before
        "matmul_bias_relu_attorch_linear_constexpr_flags": ("matmul/matmul_bias_relu",
                                                            {"batch_size": 20, "in_features": 40, "out_features": 50}),
        "bmm_lucidrains_activation_constexpr_fn_classmethod": ("matmul/bmm", {"batch_size": 2, "M": 20, "K": 30, "N": 40}),
        "softmax_lucidrains_classmethod_apply_alias": ("softmax/softmax", {"batch_size": 4, "dim": 300}),
        "gelu_unsloth_exact_long_indexing_rsqrt_const": ("activation/gelu", {"batch_size": 4, "dim": 300}),
        "matmul_sigmoid_sum_tutorial05_spin_lock_debug_barrier": ("fused/matmul_sigmoid_sum",
                                                                  {"batch_size": 20, "in_features": 40, "out_features": 90}),
        # `_k = triton.jit(_k)` then `_k = triton.heuristics({...})(_k)`: the decorators written
        # as rebinds, refused before (static_idioms folds them into the def's decorators)
        "cross_entropy_unsloth_jit_rebound_heuristics_chunks": ("loss/cross_entropy",
                                                                {"batch_size": 6, "num_classes": 300}),
        # torch.library's documented launch, wrap_triton(kernel)[grid](...), without its triton_op
        "relu_torch_library_wrap_triton_no_op": ("activation/relu", {"batch_size": 4, "dim": 300}),
    }.items()},
    # honest round, session 31: the three refused before (global, typing.cast, a warning
    # filter) and the atomics a CPU's one-program-at-a-time run must not mistake for races
    **{f"s31_{stem}.py": spec for stem, spec in {
        "silu_persistent_global_sm_cache": ("activation/silu", {"batch_size": 4, "dim": 300}),
        "leaky_relu_typed_optional_out_typing_cast": ("activation/leaky_relu", {"batch_size": 4, "dim": 300}),
        "softplus_filterwarnings_threshold": ("activation/softplus", {"batch_size": 4, "dim": 300}),
        "mse_last_block_ticket_atomic": ("loss/mse", {"batch_size": 6, "dim": 700}),
        "max_dim_split_atomic_max": ("reduction/max_dim", {"batch_size": 4, "dim": 1500}),
    }.items()},
    # honest round s31b: level-2/3 idioms; two were refused before (a half-reduction switch at
    # import, @torch.compiler.disable on the launcher). sdpa stays at a ragged 100/24 here so
    # its padded head_dim path runs
    **{f"s31b_{stem}.py": spec for stem, spec in {
        "linear_relu_scale_inference_mode_wt_buffer_autotune": ("fused/linear_relu_scale",
                                                                {"batch_size": 20, "in_features": 40, "out_features": 50}),
        "matmul_softmax_f_linear_tf32_online_softmax_chunks": ("fused/matmul_softmax",
                                                               {"batch_size": 20, "in_features": 40, "out_features": 90}),
        "matmul_sigmoid_sum_tile_rowsum_atomic_reset_to_zero": ("fused/matmul_sigmoid_sum",
                                                                {"batch_size": 20, "in_features": 40, "out_features": 150}),
        "linear_gelu_split_k_atomic_then_gelu_epilogue": ("matmul/linear_gelu",
                                                          {"batch_size": 20, "in_features": 72, "out_features": 50}),
        "conv2d_bias_relu_implicit_gemm_weight_buffer": ("conv/conv2d_bias_relu", None),
        "conv_add_sigmoid_no_grad_memory_format_constexpr": ("fused/conv_add_sigmoid", None),
        "groupnorm_chunked_welford_chan_merge_helper_module": ("norm/groupnorm", None),
        "layernorm_lane_welford_dtype_ternary_empty_like_format": ("norm/layernorm", {"batch_size": 3, "dim": 1500}),
        "sdpa_flash_3d_grid_padded_head_dim_genexpr": ("attention/sdpa",
                                                       {"batch_size": 1, "num_heads": 2, "seq_len": 100, "head_dim": 24}),
        "causal_sdpa_fp16_inference_mode_block_skip_tuple_helper": ("attention/causal_sdpa_fp16", None),
        "cross_entropy_online_lse_tuple_hints_do_bench_main": ("loss/cross_entropy", {"batch_size": 6, "num_classes": 700}),
        "matmul_bias_relu_addmm_inplace_relu_restore_value": ("matmul/matmul_bias_relu",
                                                              {"batch_size": 20, "in_features": 40, "out_features": 50}),
        "matmul_row_chunks_split_zip_output_views": ("matmul/matmul", None),
        "matmul_fp16_reduced_precision_switch_autotune": ("matmul/matmul_fp16", None),
        "matmul_residual_compiler_disable_weight_T_view": ("matmul/matmul_residual", None),
    }.items()},
    # honest round s31c: reductions/softmax/loss/elementwise idioms (tl.reduce tuple combines,
    # scans, partials buffers, split atomics, persistent grids)
    **{f"s31c_{stem}.py": spec for stem, spec in {
        "argmax_dim_tl_reduce_tuple_combine_two_stage_partials": ("reduction/argmax_dim", None),
        "cumsum_reduce_then_scan_three_kernels_associative_scan": ("reduction/cumsum", {"batch_size": 4, "dim": 1200}),
        "mean_dim_persistent_rows_num_programs_keepdim_fp32_acc": ("reduction/mean_dim", {"batch_size": 40, "dim": 300}),
        "sum_dim_movedim_split_k_atomic_add_zeros": ("reduction/sum_dim", {"batch_size": 2, "dim1": 70, "dim2": 150}),
        "softmax_tl_reduce_online_max_sum_combine_heuristics": ("softmax/softmax", {"batch_size": 4, "dim": 1500}),
        "log_softmax_split_row_partials_lse_two_kernels": ("softmax/log_softmax", {"batch_size": 4, "dim": 1500}),
        "cross_entropy_ignore_index_atomic_sum_and_count": ("loss/cross_entropy", {"batch_size": 6, "num_classes": 700}),
        "subtract_mean_pivot_shifted_persistent_rows": ("reduction/subtract_mean", None),
        "kl_div_close_multirow_tile_where_log_atomic_batchmean": ("loss/kl_div_close", None),
        "mul_broadcast_flat_grid_stride_int64_hints": ("elementwise/mul_broadcast", None),
        "hinge_tl_reduce_custom_add_two_stage_triton_finish": ("loss/hinge", {"batch_size": 6, "dim": 700}),
        "cosine_loss_three_output_row_stats_torch_finish": ("loss/cosine_loss", {"batch_size": 6, "dim": 700}),
        # a memoising config decorator (`cache = {}` in it), refused before
        "max_dim_values_indices_namedtuple_config_cache_decorator": ("reduction/max_dim", {"batch_size": 4, "dim": 1500}),
    }.items()},
    # honest round s50: class idioms of launcher and config objects refused as hacks before (an
    # @enum.unique Enum, a property's @block.setter run by the launcher's own `self.block = ...`;
    # a frozen dataclass deriving fields by object.__setattr__ in __post_init__)
    "s50_11_hardtanh_enum_unique_property_setter.py": ("activation/hardtanh", {"batch_size": 4, "dim": 300}),
    "s50_19_rmsnorm_frozen_dataclass_post_init_derived_block.py": ("norm/rmsnorm",
                                                                   {"batch_size": 2, "seq_len": 3, "hidden": 200}),
    # block pointers (tl.make_block_ptr / tl.advance), which Triton 3.9 removed and the H200's
    # 3.6 still lowers: written out as its RewriteTensorPointer does (evaluator.block_pointers)
    "s50d_relu_block_ptr_2d_loop.py": ("activation/relu", {"batch_size": 4, "dim": 300}),
    # block pointers made in the arms of a tl.constexpr if and re-made in tl.static_range copies:
    # compile-time choices, no join (refused as two origins in session 52)
    # Liger RMSNorm split by arm (session 53: one 741-line file held both): the one-row kernels
    # and the block-row kernels (BLOCK_ROW rows per program), each behind the version-gated rsqrt import
    "s42_rmsnorm_liger_version_gated_rsqrt_import.py": ("norm/rmsnorm", None),
    "s53_18_rmsnorm_liger_block_row_kernels.py": ("norm/rmsnorm", None),
    "s53_00_relu_block_ptr_constexpr_arms_and_static_range.py": ("activation/relu", {"batch_size": 4, "dim": 300}),
    # tutorial 06 (2.x-3.0) style: K/V block pointers passed to an _attn_fwd_inner helper that
    # advances its own copies (session 50e: a compile_error before)
    "s50e_causal_sdpa_fp16_tutorial06_block_ptr_inner_helper.py": ("attention/causal_sdpa_fp16", None),
    # honest round s50h: Inductor's pasted `tl_math = tl.math` was refused as a module used as a
    # value; Inductor's maximum_with_index combine (`if is_floating(a_value):`) ran element by
    # element and timed out (interpreter_reduce._typed_if)
    "s50h_01_mish_inductor_poi_tl_math_alias_helpers.py": ("activation/mish", {"batch_size": 4, "dim": 300}),
    "s50h_04_argmax_inductor_red_fused_max_with_index_is_floating.py": ("reduction/argmax_dim",
                                                                         {"batch_size": 8, "dim": 700}),
    # the same helper verbatim, `mask |= a_isnan and not b_isnan`: `and`/`not` made the combine
    # run element by element (a timeout) though they run elementwise on blocks as on the GPU
    "s50h_18_argmax_inductor_verbatim_maximum_with_index_and_not.py": ("reduction/argmax_dim",
                                                                        {"batch_size": 8, "dim": 700}),
    # honest round s51b: xformers' libdevice_find as nested try/except ImportError fallbacks (the
    # pinned source put the handler's resource check before the nested `try:`, a SyntaxError);
    # FlagGems' libentry() stubbed as an identity factory on a kernel and `libtuner =
    # triton.autotune` (both refused as decorators); mamba's `except ImportError:` version probe
    "s51_08_rmsnorm_xformers_libdevice_find_try_chain.py": ("norm/rmsnorm", {"batch_size": 2, "seq_len": 3, "hidden": 200}),
    "s51_21_mean_dim_flaggems_libentry_stub_libtuner_alias.py": ("reduction/mean_dim", {"batch_size": 8, "dim": 700}),
    "s51_16_silu_mamba_k_activations_determinism_autotune_configs.py": ("activation/silu", {"batch_size": 4, "dim": 300}),
    # honest round s52: kernels of sources not used before (Liger softmax / group norm, attorch,
    # torchao GaLore, Triton-Puzzles, SGLang prefill attention, tutorial 03 in its 3.x form, fla,
    # unsloth's layernorm). Refused before: SGLang's CUDA_CAPABILITY bound under
    # `if is_cuda_available:` and read in a function (08), fla's autotune comprehension binding
    # the block shape's BT (11, the block-pointer kernel at hidden 200)
    **{f"s52_{stem}.py": spec for stem, spec in {
        "01_softmax_liger_single_multi_block_cache_modifier": ("softmax/softmax", {"batch_size": 4, "dim": 300}),
        "02_log_softmax_attorch_batch_heuristic_input_shadow_log_flag": ("softmax/log_softmax",
                                                                         {"batch_size": 4, "dim": 700}),
        "03_rmsnorm_attorch_subclassed_nn_rmsnorm_scale_by_weight_flags": ("norm/rmsnorm",
                                                                           {"batch_size": 2, "seq_len": 3, "hidden": 200}),
        "04_groupnorm_liger_compare_version_rsqrt_channel_loop": ("norm/groupnorm", None),
        "06_matmul_torchao_galore_autotuner_factory_splitk_epilogue_none": ("matmul/matmul", {"M": 40, "K": 50, "N": 60}),
        "07_softmax_triton_puzzles_long_softmax_exp2_two_loops": ("softmax/softmax", {"batch_size": 4, "dim": 300}),
        "08_sdpa_sglang_prefill_context_attention_start_loc_seqlen": ("attention/sdpa", None),
        "09_matmul_fp16_tutorial03_3x_is_cuda_configs_tl_assume_hip_dict_union": ("matmul/matmul_fp16",
                                                                                  {"M": 70, "K": 40, "N": 60}),
        "10_silu_fla_swish_do_not_specialize_row_stride_kwargs_lambda_grid": ("activation/silu",
                                                                              {"batch_size": 4, "dim": 300}),
        "11_rmsnorm_fla_layernorm_block_ptr_bt_rows_nb_key_is_rms_norm": ("norm/rmsnorm",
                                                                          {"batch_size": 2, "seq_len": 3, "hidden": 200}),
        "12_batchnorm_inference_attorch_restore_value_is_train_flag_subclass": ("norm/batchnorm_inference", None),
        "13_bmm_triton_puzzles_dot_kernel_batch_program_id2": ("matmul/bmm", {"batch_size": 2, "M": 20, "K": 30, "N": 40}),
        "14_cross_entropy_attorch_log_softmax_then_nll_string_reduction": ("loss/cross_entropy",
                                                                           {"batch_size": 6, "num_classes": 300}),
        "15_layernorm_unsloth_fast_layernorm_eps_constexpr_gpu_device_alias": ("norm/layernorm",
                                                                               {"batch_size": 3, "dim": 700}),
        "16_softmax_fla_ops_utils_fast_ops_env_switch_exp_alias": ("softmax/softmax", {"batch_size": 4, "dim": 300}),
        "17_axpby_fp16_tutorial01_3x_device_assert_grid_meta": ("elementwise/axpby_fp16", {"n_elements": 3000}),
        # fla's input_guard: `with ctx:` over a local holding torch.cuda.device(...) or nullcontext()
        "18_sigmoid_bf16_fla_sigmoid_input_guard_with_ctx_local": ("activation/sigmoid_bf16",
                                                                   {"batch_size": 4, "dim": 300}),
        "19_gelu_attorch_act_fused_dropout_constexpr_off_tl_rand": ("activation/gelu", {"batch_size": 4, "dim": 300}),
        "20_rmsnorm_vllm_layernorm_gated_stacked_heuristics_none_z": ("norm/rmsnorm",
                                                                      {"batch_size": 2, "seq_len": 3, "hidden": 200}),
    }.items()},
    # honest round s53d: sources not used before (lmdeploy, TransformerEngine, lightning-thunder,
    # DeepSpeed-Inference, TritonBench-G's collected FlagGems / xformers / flash kernels). Refused
    # before: FlagGems' generated pointwise code, block pointers whose order and boundary_check
    # are tuples of tl.constexpr parameters (10, compile_error; checked at the launch since)
    **{f"s53_{stem}.py": spec for stem, spec in {
        "01_rmsnorm_lmdeploy_constexpr_row_stride_eps": ("norm/rmsnorm", {"batch_size": 2, "seq_len": 3, "hidden": 200}),
        "02_cross_entropy_transformer_engine_atomic_n_non_ignore_autograd": ("loss/cross_entropy",
                                                                             {"batch_size": 6, "num_classes": 300}),
        "03_cross_entropy_thunder_triton_ce_enum_dtype_buffer_debug_barrier": ("loss/cross_entropy",
                                                                               {"batch_size": 6, "num_classes": 300}),
        "05_gelu_deepspeed_inference_erf_functor_accelerator_check": ("activation/gelu", {"batch_size": 4, "dim": 300}),
        "06_layernorm_deepspeed_inference_clamped_block_size_three_loops": ("norm/layernorm", {"batch_size": 3, "dim": 700}),
        "07_causal_softmax_tritonbench_g_xformers_ksoftmax_stacked_heuristics": ("softmax/causal_softmax", None),
        "09_argmax_dim_tritonbench_g_flaggems_argmax_chained_and_mask_tie_break": ("reduction/argmax_dim",
                                                                                   {"batch_size": 8, "dim": 300}),
        "10_relu_tritonbench_g_flaggems_strided_buffer_generated_pointwise_block_ptr": ("activation/relu",
                                                                                        {"batch_size": 4, "dim": 300}),
        "11_mean_dim_tritonbench_g_flaggems_mean_dim_compress_two_space_indent": ("reduction/mean_dim",
                                                                                  {"batch_size": 8, "dim": 700}),
        "12_max_dim_tritonbench_g_flaggems_max_shadows_builtin_namedtuple": ("reduction/max_dim",
                                                                            {"batch_size": 4, "dim": 1500}),
        # NaN where the width is no multiple of its tile (the source's bug): run at one that is
        "15_softmax_tritonbench_g_flaggems_online_v2_prev_multiple_unmasked_tiles": ("softmax/softmax",
                                                                                     {"batch_size": 2, "dim": 4096}),
        "16_rmsnorm_tritonbench_g_llama_rmsnorm_starred_strides_eps_constexpr": ("norm/rmsnorm",
                                                                                 {"batch_size": 2, "seq_len": 3, "hidden": 200}),
    }.items()},
    # honest round s54c: sources not sampled before (thinking-machines' batch_invariant_ops,
    # triton-lang/kernels, hkproj's flash attention, ColossalAI, flashinfer, torchtitan, aiter,
    # SGLang's diffusion kernels, flash-attn's layer_norm). Refused before: ColossalAI's HAS_TRITON
    # guard whose handler prints an install hint (07: "no @triton.jit kernel"), SGLang's
    # `with torch.get_device_module().device(x.device):` (12)
    **{f"s54_{stem}.py": spec for stem, spec in {
        "01_matmul_batch_invariant_persistent_launch_metadata_match_case": ("matmul/matmul", {"M": 40, "K": 50, "N": 60}),
        "02_log_softmax_batch_invariant_three_loops_int64_row": ("softmax/log_softmax", {"batch_size": 4, "dim": 700}),
        "03_mean_dim_batch_invariant_mnk_view_early_return": ("reduction/mean_dim", {"batch_size": 8, "dim": 700}),
        "04_cross_entropy_triton_lang_kernels_heuristics_num_warps_debug_barrier": ("loss/cross_entropy",
                                                                                    {"batch_size": 6, "num_classes": 300}),
        "05_causal_sdpa_fp16_hkproj_flash_attention_inner_constexpr_offsets": ("attention/causal_sdpa_fp16", None),
        "07_softmax_colossalai_has_triton_print_install_hint_none_mask": ("softmax/softmax", {"batch_size": 4, "dim": 300}),
        "08_rmsnorm_flashinfer_constexpr_none_bindings_scale_and_clamp": ("norm/rmsnorm",
                                                                          {"batch_size": 2, "seq_len": 3, "hidden": 200}),
        "09_rmsnorm_torchtitan_fused_rmsnorm_autotune_num_warps_only_block_n_fstring": (
            "norm/rmsnorm", {"batch_size": 2, "seq_len": 3, "hidden": 200}),
        "10_softmax_aiter_online_two_loops_cache_modifier_kernel_repr_factory": ("softmax/softmax",
                                                                                 {"batch_size": 4, "dim": 300}),
        "11_rmsnorm_aiter_persistent_use_blocked_lru_cache_num_sms": ("norm/rmsnorm",
                                                                      {"batch_size": 2, "seq_len": 3, "hidden": 200}),
        "12_rmsnorm_sglang_onepass_wrap_triton_keep_dims_float_constexpr": ("norm/rmsnorm",
                                                                            {"batch_size": 2, "seq_len": 3, "hidden": 200}),
        "13_scale_bias_sglang_fuse_scale_shift_blc_scalar_flags_expand_strides": ("elementwise/scale_bias",
                                                                                  {"n_tokens": 8, "num_features": 300}),
        "14_layernorm_flash_attn_layer_norm_fwd_none_pointers_wrap_triton_warp_size_configs": (
            "norm/layernorm", {"batch_size": 3, "dim": 700}),
        # the CPU's own sizes (the one-row arm): at dim 300 the scale:1e-3 trial is incorrect,
        # fairly (eps 1e-6 inside the root, where F.normalize clamps the norm at 1e-12)
        "16_l2_normalize_aiter_fla_l2norm_store_rstd_output_as_placeholder": ("norm/l2_normalize", None),
        "17_argmax_dim_triturus_vmax_return_indices_strided_stage_reduce": ("reduction/argmax_dim",
                                                                            {"batch_size": 8, "dim": 300}),
        "18_softmax_vit_triton_positional_mask_batch_row_grid": ("softmax/softmax", {"batch_size": 4, "dim": 300}),
    }.items()},
    # honest round s55d: FlagGems' recursive scan-then-fan cumsum (in-kernel dtype tests by
    # `tl.constexpr(dtype.is_int64())`), a group held in registers with gathered affine, an
    # unfold-view implicit-GEMM conv (F.pad + Tensor.unfold strides), cuBLAS + an autotuned erf
    # epilogue behind `if not x.is_cuda`, tl.reduce over an (m, s) online-LSE pair, FlagGems'
    # max_dim (get_dtype_min's constexpr-annotated int paths). The unfold conv and s49_26 were
    # paid less before cpu_work charged copies in the coverage bound at the bytes they read
    **{f"s55_{stem}.py": spec for stem, spec in {
        "03_cumsum_flaggems_scan_then_fan_abc_recursive_partials": ("reduction/cumsum", {"batch_size": 2, "dim": 5000}),
        "04_groupnorm_group_in_registers_centered_variance_gathered_affine": ("norm/groupnorm", None),
        "06_conv2d_bias_relu_tensor_unfold_view_strided_gemm": ("conv/conv2d_bias_relu", None),
        "07_linear_gelu_cublas_mm_autotuned_epilogue_libdevice_erf_cpu_fallback": ("matmul/linear_gelu", None),
        "08_log_softmax_tl_reduce_tuple_online_normalizer_combine": ("softmax/log_softmax", {"batch_size": 4, "dim": 700}),
        "10_max_dim_flaggems_get_dtype_min_constexpr_annotations_int_paths_namedtuple": ("reduction/max_dim",
                                                                                         {"batch_size": 8, "dim": 1500}),
        "09_bmm_flaggems_bmm_divisible_heuristics_mask_none_allow_tf32_false": ("matmul/bmm", None),
        "11_batchnorm_inference_flaggems_attorch_pointer_truthiness_restore_value_warps_only": (
            "norm/batchnorm_inference", None),
        # tutorial 05's spin lock (atomic_cas / atomic_xchg) and a last-block ticket (acq_rel atomic_add)
        "12_mean_dim_tutorial05_atomic_cas_lock_partial_row_sums": ("reduction/mean_dim", {"batch_size": 8, "dim": 1500}),
        "13_hinge_last_block_ticket_reduction_acq_rel_atomic": ("loss/hinge", {"batch_size": 8, "dim": 700}),
        "15_conv1d_bias_relu_shifted_tap_gemms_static_range_dot": ("conv/conv1d_bias_relu", None),
        "14_depthwise_conv2d_channels_last_pixel_by_channel_tiles_static_range_taps": ("conv/depthwise_conv2d", None),
        # an in-place autotuned epilogue over cuBLAS's output with restore_value (the benchmark's reruns)
        "16_linear_relu_scale_tf32_flags_f_linear_inplace_epilogue_autotune": ("fused/linear_relu_scale", None),
        "19_sdpa_flash_forward_tf32x3_dots_exp2_autotune_keyed_seq": ("attention/sdpa", None),
        "20_mul_broadcast_block_ptr_unit_column_scale_boundary_check": ("elementwise/mul_broadcast", None),
    }.items()},
    # honest round s56d: Triton ops the CPU interpreter lacked, run there as the GPU defines them:
    # tutorial 11's programmatic dependent launch (gdc_wait/gdc_launch_dependents, launch_pdl),
    # tl.map_elementwise (Triton's documented ELU), a descriptor's reduction store (split-K
    # through c_desc.atomic_add, host and device descriptors); and split reductions through
    # float/packed-int64 atomic_max, an Inductor-style decoupled look-back scan, base-2 softmax
    **{f"s56d_{stem}.py": spec for stem, spec in {
        "01_axpby_fp16_tutorial11_pdl_gdc_wait_launch_pdl": ("elementwise/axpby_fp16", {"n_elements": 5000}),
        "02_max_dim_split_columns_float_atomic_max_relaxed": ("reduction/max_dim", {"batch_size": 8, "dim": 1500}),
        "03_elu_libdevice_expm1_dtype_table_constexpr_enable_fp_fusion_false": ("activation/elu",
                                                                                {"batch_size": 4, "dim": 300}),
        "04_cumsum_inductor_decoupled_lookback_packed_flag_atomic_xchg": ("reduction/cumsum",
                                                                          {"batch_size": 2, "dim": 3000}),
        "05_mse_persistent_grid_stride_atomic_add_relaxed_scope_gpu": ("loss/mse", {"batch_size": 4, "dim": 3000}),
        "06_softmax_tl_softmax_single_block_online_tl_range_disallow_acc_multi_buffer": (
            "softmax/softmax", {"batch_size": 4, "dim": 300}),
        "07_groupnorm_split_stats_atomic_sum_sumsq_then_affine_apply": (
            "norm/groupnorm", {"batch_size": 2, "channels": 6, "num_groups": 3, "height": 8, "width": 8}),
        "08_matmul_fp16_tutorial03_autotune_cache_results_max_num_imprecise_acc_none": (
            "matmul/matmul_fp16", {"M": 40, "K": 56, "N": 48}),
        "09_elu_tl_map_elementwise_scalar_branch": ("activation/elu", {"batch_size": 4, "dim": 200}),
        "10_matmul_splitk_host_descriptors_tma_atomic_add_tf32": ("matmul/matmul", {"M": 40, "K": 264, "N": 48}),
        "11_cross_entropy_online_lse_tl_gather_target_logit_two_kernel_mean": (
            "loss/cross_entropy", {"batch_size": 4, "num_classes": 300}),
        "12_argmax_dim_split_packed_int64_key_atomic_max_decode_kernel": ("reduction/argmax_dim",
                                                                          {"batch_size": 8, "dim": 1500}),
        "13_silu_libdevice_fast_dividef_fast_expf_autotuned_block": ("activation/silu", {"batch_size": 4, "dim": 300}),
        "14_log_softmax_fla_base2_exp2_log2_constexpr_globals_heuristics_block": (
            "softmax/log_softmax", {"batch_size": 4, "dim": 700}),
        "15_bmm_splitk_device_tensor_descriptors_set_allocator_tma_atomic_add": (
            "matmul/bmm", {"batch_size": 2, "M": 40, "K": 136, "N": 48}),
        "16_rmsnorm_two_launch_pdl_gdc_wait_after_independent_loads": ("norm/rmsnorm",
                                                                       {"batch_size": 2, "seq_len": 3, "hidden": 1500}),
        "18_sigmoid_bf16_flaggems_2d_strided_tiles_exp2_rtne_downcast": ("activation/sigmoid_bf16",
                                                                         {"batch_size": 4, "dim": 300}),
        "19_kl_div_liger_row_tiles_libdevice_fast_logf_atomic_batchmean": ("loss/kl_div", {"batch_size": 8, "dim": 1500}),
        # a mapped smooth L1: a CPU-only timeout while the map ran one interpreted call per element
        "17_smooth_l1_map_elementwise_branchy_huber_partials": ("loss/smooth_l1", {"batch_size": 4, "dim": 3000}),
    }.items()},
    # honest round s56m: a geometry tuple of 20 ints (launch_args.TUPLE_INTS), and one launched
    # per image with its index inside (launch_args.count_text: 18 data ints per image before)
    "s56m_11_depthwise_conv2d_geometry_tuple_of_twenty_ints.py": (
        "conv/depthwise_conv2d", {"batch_size": 2, "channels": 4, "height": 12, "width": 12, "kernel_size": 3}),
    "s56m_12_depthwise_conv2d_per_image_launch_geometry_tuple.py": (
        "conv/depthwise_conv2d", {"batch_size": 5, "channels": 3, "height": 8, "width": 8, "kernel_size": 3}),
    # honest round s57d: launch ints, int tables, constant tables, tuple args and the outside-go
    # charge as people write them: row-chunk views with their numel (the last chunk ragged),
    # per-(batch, head), per-image and per-batch launch loops, near-equal row splits handed as
    # ints, split-K through a partial workspace, MoE/grouped GEMMs with device-made routing
    # offsets and host int tables, 5-D shape/stride tuple arguments, sixteen stride ints, typed
    # coefficient tables (A&S erf globals, Eigen tanh tuple and defaults, fdlibm's erf in eight
    # tuples; one kernel for both GELU modes at 67 typed numbers was host_compute), init-made
    # coefficient buffers, cuBLAS with in-place Triton epilogues behind CPU fallbacks
    **{f"s57d_{stem}.py": spec for stem, spec in {
        "01_gelu_abramowitz_stegun_erf_constexpr_globals_autotune": ("activation/gelu", {"batch_size": 4, "dim": 300}),
        "02_gelu_tanh_eigen_rational_tanh_coefficient_tuple_global": ("activation/gelu_tanh",
                                                                      {"batch_size": 4, "dim": 300}),
        "03_silu_fast_exp2_cody_waite_split_horner_defaults": ("activation/silu", {"batch_size": 4, "dim": 300}),
        "04_mish_exp2_rational_tanh_softplus_log2e_computed_constexpr": ("activation/mish",
                                                                         {"batch_size": 4, "dim": 300}),
        "05_cross_entropy_row_chunks_views_numel_ragged_last_chunk": ("loss/cross_entropy",
                                                                      {"batch_size": 14, "num_classes": 300}),
        "06_sdpa_per_batch_head_loop_flash_forward_2d_views": (
            "attention/sdpa", {"batch_size": 1, "num_heads": 2, "seq_len": 64, "head_dim": 32}),
        "07_matmul_split_k_partial_buffer_then_reduce_k_per_split_rounded": ("matmul/matmul",
                                                                             {"M": 40, "K": 88, "N": 48}),
        "08_bmm_moe_grouped_gemm_device_routing_counts_cumsum_offsets": (
            "matmul/bmm", {"batch_size": 2, "M": 40, "K": 24, "N": 40}),
        "09_groupnorm_five_d_view_shape_stride_tuples": (
            "norm/groupnorm", {"batch_size": 2, "channels": 6, "num_groups": 3, "height": 8, "width": 8}),
        "10_linear_gelu_cublas_mm_inplace_epilogue_nr_erfc_tuple_default_cpu_fallback": (
            "matmul/linear_gelu", {"batch_size": 24, "in_features": 40, "out_features": 56}),
        "11_matmul_bias_relu_tf32_dot_autotune_eight_configs_group_m": (
            "matmul/matmul_bias_relu", {"batch_size": 24, "in_features": 40, "out_features": 56}),
        "12_batchnorm_inference_per_image_loop_five_inputs_strided_channels": (
            "norm/batchnorm_inference", {"batch_size": 2, "channels": 3, "height": 8, "width": 8}),
        "13_causal_sdpa_fp16_sixteen_stride_ints_z_h_grid_causal_two_stage": (
            "attention/causal_sdpa_fp16", {"batch_size": 1, "num_heads": 2, "seq_len": 64, "head_dim": 32}),
        "14_cumsum_chunk_totals_buffer_then_prefix_add_two_kernels": ("reduction/cumsum",
                                                                      {"batch_size": 2, "dim": 700}),
        "15_sum_dim_per_batch_loop_slice_views_column_blocks": ("reduction/sum_dim",
                                                                {"batch_size": 2, "dim1": 40, "dim2": 100}),
        "16_rmsnorm_varlen_cu_seqlens_on_device_program_per_token_block": (
            "norm/rmsnorm", {"batch_size": 2, "seq_len": 5, "hidden": 300}),
        "17_kl_div_fast_log_exponent_split_atanh_series_constexpr_globals": ("loss/kl_div",
                                                                             {"batch_size": 4, "dim": 700}),
        "18_softmax_row_chunk_views_rows_from_numel": ("softmax/softmax", {"batch_size": 8, "dim": 300}),
        "19_matmul_residual_cublas_addmm_inplace_residual_epilogue_autotune_cpu_fallback": (
            "matmul/matmul_residual", {"batch_size": 24, "in_features": 40, "out_features": 56}),
        "20_axpby_fp16_float_scalar_args_int64_offsets_cpu_fallback": ("elementwise/axpby_fp16",
                                                                       {"n_elements": 5000}),
        "21_elu_expm1_taylor_coefficients_buffer_made_by_torch_at_init": ("activation/elu",
                                                                          {"batch_size": 4, "dim": 300}),
        "22_bmm_grouped_gemm_host_int_tables_sizes_element_offsets_tile_starts": (
            "matmul/bmm", {"batch_size": 2, "M": 40, "K": 24, "N": 40}),
        "23_gelu_fdlibm_erf_port_coefficient_tuples_horner_helper": ("activation/gelu",
                                                                     {"batch_size": 4, "dim": 300}),
        "24_gelu_tanh_folded_coefficients_tensor_scaled_at_init": ("activation/gelu_tanh",
                                                                   {"batch_size": 4, "dim": 300}),
        "26_layernorm_near_equal_row_splits_row_start_ints_whole_tensors": ("norm/layernorm",
                                                                            {"batch_size": 7, "dim": 300}),
        "27_gelu_both_modes_fdlibm_erf_and_eigen_tanh_tuples_sixty_seven_typed_numbers": (
            "activation/gelu", {"batch_size": 4, "dim": 300}),
    }.items()},
    # honest round s57g: Liger/FlagGems/unsloth/xformers/attorch idioms for the thinner problem
    # groups (each file's first line names them); all ok on the first run but the Liger
    # ensure_contiguous rebinding *args through maybe_to_contiguous (05: refused as a decorator
    # off the allowlist until static_decorators took that shape). Refusals kept by design: 01's
    # first draft wrapped the kernels in a libentry class (__getitem__, or a
    # triton.KernelInterface subclass with run), 18's read the weight's private _version
    **{f"s57g_{stem}.py": (problem, None) for stem, problem in {
        "01_mse_close_flaggems_libentry_two_pass": "loss/mse_close",
        "02_mish_flaggems_heuristics_dtype_constexpr": "activation/mish",
        "03_add_broadcast_flaggems_cached_launcher_by_shape": "elementwise/add_broadcast",
        "04_hinge_attorch_autograd_function_two_stage": "loss/hinge",
        "05_mul_broadcast_liger_calculate_settings_rows": "elementwise/mul_broadcast",
        "06_cosine_loss_liger_rows_then_mean_kernel": "loss/cosine_loss",
        "07_kl_div_close_liger_kldiv_batchmean_rows": "loss/kl_div_close",
        "08_subtract_mean_flaggems_two_pass_looped_row": "reduction/subtract_mean",
        "09_leaky_relu_flaggems_pointwise_dynamic_scalar_param": "activation/leaky_relu",
        "10_conv_add_sigmoid_cudnn_then_fused_bias_sigmoid_inplace": "fused/conv_add_sigmoid",
        "11_matmul_residual_xformers_autotune_grouped_tf32_epilogue": "matmul/matmul_residual",
        "12_l2_normalize_liger_rownorm_rstd_cache": "norm/l2_normalize",
        "13_causal_softmax_xformers_causal_constexpr_rows": "softmax/causal_softmax",
        "14_kl_div_persistent_rows_per_program_partials": "loss/kl_div",
        "15_smooth_l1_unsloth_chunked_rows_beta_constexpr": "loss/smooth_l1",
        "16_matmul_sigmoid_sum_gemm_epilogue_rowsum_partials_fp16_fallback": "fused/matmul_sigmoid_sum",
        "17_matmul_softmax_addmm_then_liger_softmax_online_blocks": "fused/matmul_softmax",
        "18_conv1d_bias_relu_direct_tl_dot_per_tap": "conv/conv1d_bias_relu",
        "19_mul_broadcast_launcher_dict_keyed_on_shape_autograd_fn": "elementwise/mul_broadcast",
        "20_add_broadcast_plane_per_program_noncontig_torch_fallback": "elementwise/add_broadcast",
    }.items()},
    # honest round s57h, against session 57's timing rules (a launch or torch call of the
    # candidate's outside a forward, from a timed batch's draws to its sums, is forged_timing):
    # launches at import and in __init__, a lazily grown torch.empty workspace zeroed by torch in
    # forward, an lru_cache'd grid, an autotune config's pre_hook, lazy first-forward state
    "s57h_01_relu_weight_prep_launch_in_init_import_warmup_workspace_lru_grid.py": (
        "activation/relu", {"batch_size": 4, "dim": 300}),
    "s57h_02_relu_autotune_config_pre_hook_lazy_first_forward_launcher_cache.py": (
        "activation/relu", {"batch_size": 4, "dim": 300}),
    # session 60: a config pre_hook's fill_(0.0) before atomics, run hundreds of times by an
    # autotuner's benchmark (each call counted: host_compute on the CPU and on an H100 before)
    "s60l_01_sum_dim_split_reduction_atomic_add_autotune_pre_hook_fill.py": (
        "reduction/sum_dim", {"batch_size": 2, "dim1": 300, "dim2": 150}),
}
