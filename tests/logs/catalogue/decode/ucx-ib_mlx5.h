# openucx/ucx v1.22.0 src/uct/ib/mlx5/ib_mlx5.h
#define UCT_IB_MLX5_CQE_VENDOR_SYND_ODP  0x93
#define UCT_IB_MLX5_CQE_VENDOR_SYND_PSN  0x99
