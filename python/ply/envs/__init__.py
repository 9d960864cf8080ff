"""Learning environments over ply: ``ply.envs.pettingzoo`` (AEC, every game), ``ply.envs.gymnasium`` (single agent, the opponent inside) and ``ply.envs.vector`` (batched, in Rust)."""
