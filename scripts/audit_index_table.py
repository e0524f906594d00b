"""The hand-made baselines' table for scripts/audit_index_hand.py: per overload, arguments that
agree with each other (a convolution's weight with its input, a grid with its input, an rnn's
weights with its hidden size); the others take their schema default (or None where optional).
Data only, kept apart from the variants and the out= baselines built from it."""

from __future__ import annotations

import torch
from audit_index_probe import TSpec

F32, I64, I32 = torch.float32, torch.int64, torch.int32


def f(*shape, ffill=None) -> TSpec:
    return TSpec(tuple(shape), F32, ffill=ffill)


def i(*shape, fill=0, dtype=I64) -> TSpec:
    return TSpec(tuple(shape), dtype, fill=fill)


def _conv(nd: int, transposed: bool = False) -> dict:
    x = f(1, 2, *[4] * nd)
    w = f(2, 3, *[2] * nd) if transposed else f(3, 2, *[2] * nd)
    return {"x": x, "w": w, "k": [2] * nd, "one": [1] * nd, "zero": [0] * nd}


def _rnns() -> dict:
    """gru/rnn_tanh/rnn_relu (lstm is refused: a control) over a sequence and a packed one:
    hidden 3, input 2, one layer, weights [w_ih, w_hh, b_ih, b_hh] (3 gates for gru)."""
    found = {}
    for name, gates in (("gru", 3), ("rnn_tanh", 1), ("rnn_relu", 1)):
        params = [f(3 * gates, 2), f(3 * gates, 3), f(3 * gates), f(3 * gates)]
        common = {
            "params": params,
            "has_biases": True,
            "num_layers": 1,
            "dropout": 0.0,
            "train": False,
            "bidirectional": False,
        }
        found[f"{name}.input"] = {
            **common,
            "input": f(5, 1, 2),
            "hx": f(1, 1, 3),
            "batch_first": False,
        }
        found[f"{name}.data"] = {
            **common,
            "data": f(5, 2),
            "batch_sizes": i(5, fill=1),
            "hx": f(1, 1, 3),
        }
        found[f"{name}_cell.default"] = {
            "input": f(1, 2),
            "hx": f(1, 3),
            "w_ih": params[0],
            "w_hh": params[1],
            "b_ih": params[2],
            "b_hh": params[3],
        }
    found["lstm_cell.default"] = {
        "input": f(1, 2),
        "hx": [f(1, 3), f(1, 3)],
        "w_ih": f(12, 2),
        "w_hh": f(12, 3),
        "b_ih": f(12),
        "b_hh": f(12),
    }
    return found


def table() -> dict:
    c1, c2, c3 = _conv(1), _conv(2), _conv(3)
    t1, t2, t3 = _conv(1, True), _conv(2, True), _conv(3, True)
    conv = lambda c: {
        "input": c["x"],
        "weight": c["w"],
        "bias": None,
        "stride": c["one"],  # noqa: E731
        "padding": c["zero"],
        "dilation": c["one"],
        "groups": 1,
    }
    slow = lambda c: {
        "self": c["x"],
        "weight": c["w"],
        "kernel_size": c["k"],
        "bias": None,  # noqa: E731
        "stride": c["one"],
        "padding": c["zero"],
        "dilation": c["one"],
        "output_padding": c["zero"],
    }
    up2 = {
        "input": f(1, 2, 4, 4),
        "output_size": [8, 8],
        "align_corners": False,
        "scale_factors": None,
    }
    table = {
        # ---- convolutions
        "convolution.default": {**conv(c2), "transposed": False, "output_padding": [0, 0]},
        "conv1d.default": conv(c1),
        "conv2d.default": conv(c2),
        "conv3d.default": conv(c3),
        "im2col.default": {
            "self": f(1, 2, 4, 4),
            "kernel_size": [2, 2],
            "dilation": [1, 1],
            "padding": [0, 0],
            "stride": [1, 1],
        },  # a positive control
        "conv_transpose1d.default": {**conv(t1), "output_padding": [0]},
        "conv_transpose2d.input": {**conv(t2), "output_padding": [0, 0]},
        "conv_transpose3d.input": {**conv(t3), "output_padding": [0, 0, 0]},
        "conv_tbc.default": {"self": f(4, 1, 2), "weight": f(2, 2, 3), "bias": f(3), "pad": 0},
        "conv_depthwise3d.default": {
            "self": f(1, 2, 4, 4, 4),
            "weight": f(2, 1, 2, 2, 2),
            "kernel_size": [2, 2, 2],
            "bias": None,
            "stride": [1, 1, 1],
            "padding": [0, 0, 0],
            "dilation": [1, 1, 1],
        },
        "mkldnn_convolution.default": {
            "self": c2["x"],
            "weight": c2["w"],
            "bias": None,
            "padding": [0, 0],
            "stride": [1, 1],
            "dilation": [1, 1],
            "groups": 1,
        },
        "thnn_conv2d.default": slow(c2),
        "slow_conv3d.default": slow(c3),
        "slow_conv_dilated2d.default": slow(c2),
        "slow_conv_dilated3d.default": slow(c3),
        "slow_conv_transpose2d.default": slow(t2),
        "slow_conv_transpose3d.default": slow(t3),
        "col2im.default": {
            "self": f(1, 4, 9),
            "output_size": [4, 4],
            "kernel_size": [2, 2],
            "dilation": [1, 1],
            "padding": [0, 0],
            "stride": [1, 1],
        },
        # ---- pads
        "reflection_pad2d.default": {"self": f(1, 2, 4, 4), "padding": [1, 1, 1, 1]},
        "reflection_pad3d.default": {"self": f(1, 2, 4, 4, 4), "padding": [1] * 6},
        "replication_pad2d.default": {"self": f(1, 2, 4, 4), "padding": [1, 1, 1, 1]},
        "replication_pad3d.default": {"self": f(1, 2, 4, 4, 4), "padding": [1] * 6},
        # ---- pooling
        "adaptive_avg_pool3d.default": {"self": f(1, 2, 4, 4, 4), "output_size": [2, 2, 2]},
        "adaptive_max_pool3d.default": {"self": f(1, 2, 4, 4, 4), "output_size": [2, 2, 2]},
        "fractional_max_pool2d.default": {
            "self": f(1, 2, 8, 8),
            "kernel_size": [2, 2],
            "output_size": [4, 4],
            "random_samples": f(1, 2, 2, ffill=0.5),
        },
        "fractional_max_pool3d.default": {
            "self": f(1, 2, 8, 8, 8),
            "kernel_size": [2, 2, 2],
            "output_size": [4, 4, 4],
            "random_samples": f(1, 2, 3, ffill=0.5),
        },
        "max_unpool2d.default": {
            "self": f(1, 2, 2, 2),
            "indices": i(1, 2, 2, 2, fill=3),
            "output_size": [4, 4],
        },
        "max_unpool3d.default": {
            "self": f(1, 2, 2, 2, 2),
            "indices": i(1, 2, 2, 2, 2, fill=3),
            "output_size": [4, 4, 4],
            "stride": [2, 2, 2],
            "padding": [0, 0, 0],
        },
        # ---- sampling
        "affine_grid_generator.default": {
            "theta": f(1, 2, 3),
            "size": [1, 1, 4, 4],
            "align_corners": False,
        },
        "grid_sampler.default": {
            "input": f(1, 2, 4, 4),
            "grid": f(1, 3, 3, 2),
            "interpolation_mode": 0,
            "padding_mode": 0,
            "align_corners": False,
        },
        "grid_sampler_2d.default": {
            "input": f(1, 2, 4, 4),
            "grid": f(1, 3, 3, 2),
            "interpolation_mode": 0,
            "padding_mode": 0,
            "align_corners": False,
        },
        "grid_sampler_3d.default": {
            "input": f(1, 2, 4, 4, 4),
            "grid": f(1, 3, 3, 3, 3),
            "interpolation_mode": 0,
            "padding_mode": 0,
            "align_corners": False,
        },
        "upsample_nearest1d.vec": {**up2, "input": f(1, 2, 4), "output_size": [8]},
        "upsample_linear1d.vec": {**up2, "input": f(1, 2, 4), "output_size": [8]},
        "upsample_nearest2d.vec": up2,
        "upsample_bilinear2d.vec": up2,
        "upsample_bicubic2d.vec": up2,
        "upsample_nearest3d.vec": {**up2, "input": f(1, 2, 4, 4, 4), "output_size": [8, 8, 8]},
        "upsample_trilinear3d.vec": {**up2, "input": f(1, 2, 4, 4, 4), "output_size": [8, 8, 8]},
        "upsample_nearest3d.default": {"self": f(1, 2, 4, 4, 4), "output_size": [8, 8, 8]},
        "upsample_trilinear3d.default": {
            "self": f(1, 2, 4, 4, 4),
            "output_size": [8, 8, 8],
            "align_corners": False,
        },
        # ---- losses and index ops whose index tensors must match a shape
        "nll_loss.default": {"self": f(2, 4), "target": i(2, fill=1)},
        "nll_loss_nd.default": {"self": f(2, 4), "target": i(2, fill=1)},
        "nll_loss2d.default": {"self": f(1, 4, 2, 2), "target": i(1, 2, 2, fill=1)},
        "multi_margin_loss.default": {"self": f(2, 4), "target": i(2, fill=1)},
        "binary_cross_entropy.default": {"self": f(4, ffill=0.5), "target": f(4, ffill=0.5)},
        "cosine_embedding_loss.default": {
            "input1": f(2, 4),
            "input2": f(2, 4),
            "target": f(2, ffill=1.0),
        },
        "index_reduce.default": {
            "self": f(4, 4),
            "dim": 0,
            "index": i(2, fill=1),
            "source": f(2, 4),
            "reduce": "prod",
        },
        "index_reduce_.default": {
            "self": f(4, 4),
            "dim": 0,
            "index": i(2, fill=1),
            "source": f(2, 4),
            "reduce": "prod",
        },
        "index_fill.int_Tensor": {"self": f(4, 4), "dim": 0, "index": i(2, fill=1), "value": f()},
        "index_fill_.int_Tensor": {"self": f(4, 4), "dim": 0, "index": i(2, fill=1), "value": f()},
        "scatter.reduce": {
            "self": f(4, 4),
            "dim": 0,
            "index": i(2, 4, fill=1),
            "src": f(2, 4),
            "reduce": "add",
        },
        "scatter_.reduce": {
            "self": f(4, 4),
            "dim": 0,
            "index": i(2, 4, fill=1),
            "src": f(2, 4),
            "reduce": "add",
        },
        "scatter.value_reduce": {
            "self": f(4, 4),
            "dim": 0,
            "index": i(2, 4, fill=1),
            "value": 1.0,
            "reduce": "add",
        },
        "scatter_.value_reduce": {
            "self": f(4, 4),
            "dim": 0,
            "index": i(2, 4, fill=1),
            "value": 1.0,
            "reduce": "add",
        },
        "segment_reduce.default": {"data": f(4), "reduce": "sum", "lengths": i(2, fill=2)},
        "diagonal_scatter.default": {"self": f(4, 4), "src": f(4)},
        "select_scatter.default": {"self": f(4, 4), "src": f(4), "dim": 0, "index": 1},
        "narrow.Tensor": {"self": f(4, 4), "dim": 0, "start": i(fill=1), "length": 2},
        "cross.default": {"self": f(4, 3), "other": f(4, 3), "dim": 1},
        "linalg_cross.default": {"self": f(4, 3), "other": f(4, 3)},
        "histogramdd.default": {"self": f(4, 2), "bins": [2, 2]},
        "histogramdd.TensorList_bins": {"self": f(4, 2), "bins": [f(3), f(3)]},
        "empty_permuted.default": {"size": [2, 3], "physical_layout": [1, 0]},
        "native_group_norm.default": {
            "input": f(2, 4, 4),
            "weight": None,
            "bias": None,
            "N": 2,
            "C": 4,
            "HxW": 4,
            "group": 2,
            "eps": 1e-5,
        },
        "native_norm.ScalarOpt_dim_dtype": {
            "self": f(4, 4),
            "p": 2,
            "dim": [1],
            "keepdim": False,
            "dtype": F32,
        },
        "linalg_tensorinv.default": {"self": f(2, 2, 4), "ind": 2},
        "linalg_tensorsolve.default": {"self": f(2, 2, 4), "other": f(2, 2)},
        "lu_solve.default": {
            "self": f(4, 2),
            "LU_data": f(4, 4),
            "LU_pivots": i(4, fill=1, dtype=I32),
        },
        "lu_unpack.default": {"LU_data": f(4, 4), "LU_pivots": i(4, fill=1, dtype=I32)},
        "linalg_lu_solve.default": {"LU": f(4, 4), "pivots": i(4, fill=1, dtype=I32), "B": f(4, 2)},
        "linalg_ldl_solve.default": {
            "LD": f(4, 4),
            "pivots": i(4, fill=1, dtype=I32),
            "B": f(4, 2),
        },
        "quantile.default": {"self": f(4), "q": f(2, ffill=0.5)},
        "nanquantile.default": {"self": f(4), "q": f(2, ffill=0.5)},
        "stft.default": {"self": f(16), "n_fft": 4, "return_complex": True},
        "stft.center": {"self": f(16), "n_fft": 4, "return_complex": True},
        "istft.default": {
            "self": TSpec((3, 5), torch.complex64),
            "n_fft": 4,
            "center": True,
            "window": f(4, ffill=1.0),
        },
        "linspace.Tensor_Tensor": {"start": f(), "end": f(), "steps": 4},
        "linspace.Tensor_Scalar": {"start": f(), "end": 2.0, "steps": 4},
        "linspace.Scalar_Tensor": {"start": 0.0, "end": f(), "steps": 4},
        "logspace.Tensor_Tensor": {"start": f(), "end": f(), "steps": 4},
        "logspace.Tensor_Scalar": {"start": f(), "end": 2.0, "steps": 4},
        "logspace.Scalar_Tensor": {"start": 0.0, "end": f(), "steps": 4},
        "randint.low": {"low": 0, "high": 4, "size": [4]},
        "randint_like.low_dtype": {"self": f(4), "low": 0, "high": 4},
        # ---- session 52f: tensors whose lengths must agree (no integer argument: AGREEING)
        "gradient.tensorarray": {"self": f(4, 4), "spacing": [f(4), f(4)], "dim": [0, 1]},
        "gradient.tensorarrayint": {"self": f(4), "spacing": [f(4)], "dim": None},
        "gradient.scalarrayarray": {"self": f(4, 4), "spacing": [1.0, 2.0], "dim": [0, 1]},
        "gradient.scalarrayint": {"self": f(4), "spacing": [1.0], "dim": None},
        "orgqr.default": {"self": f(4, 2), "input2": f(2)},
        "linalg_householder_product.default": {"input": f(4, 2), "tau": f(2)},
        "ormqr.default": {"self": f(4, 2), "input2": f(2), "input3": f(4, 3)},
        **_rnns(),
        "batch_norm_update_stats.default": {
            "input": f(2, 3, 4),
            "running_mean": f(3),
            "running_var": f(3),
            "momentum": 0.5,
        },
        "batch_norm_stats.default": {"input": f(2, 3, 4), "eps": 1e-5},  # CUDA only
        "batch_norm_elemt.default": {
            "input": f(2, 3, 4),
            "weight": f(3),
            "bias": f(3),
            "mean": f(3),
            "invstd": f(3),
            "eps": 1e-5,
        },
        "batch_norm_gather_stats.default": {
            "input": f(2, 3, 4),
            "mean": f(2, 3),
            "invstd": f(2, 3),
            "running_mean": f(3),
            "running_var": f(3),
            "momentum": 0.1,
            "eps": 1e-5,
            "count": 4,
        },
        "batch_norm_gather_stats_with_counts.default": {
            "input": f(2, 3, 4),
            "mean": f(2, 3),
            "invstd": f(2, 3),
            "running_mean": f(3),
            "running_var": f(3),
            "momentum": 0.1,
            "eps": 1e-5,
            "counts": f(2, ffill=4.0),
        },
        "batch_norm_backward_reduce.default": {
            "grad_out": f(2, 3, 4),
            "input": f(2, 3, 4),
            "mean": f(3),
            "invstd": f(3),
            "weight": f(3),
            "input_g": True,
            "weight_g": True,
            "bias_g": True,
        },
        "batch_norm_backward_elemt.default": {
            "grad_out": f(2, 3, 4),
            "input": f(2, 3, 4),
            "mean": f(3),
            "invstd": f(3),
            "weight": f(3),
            "sum_dy": f(3),
            "sum_dy_xmu": f(3),
            "count": i(1, fill=8, dtype=I32),
        },
    }
    table["upsample_nearest3d.default"]["scales_d"] = None
    return table
