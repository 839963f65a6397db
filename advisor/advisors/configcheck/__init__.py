"""Helpers of the config_validity advisor: value checks, near-miss names and option-group roles."""
