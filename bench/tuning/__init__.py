"""Helpers of bench/tuning_gain.py: the private server, sysbench, our advice, apply_sql checks, figures."""
