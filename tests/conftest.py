from hypothesis import HealthCheck, settings

# Numba compiles on first call, so per-example deadlines would measure the compiler.
settings.register_profile(
    "simcore", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.load_profile("simcore")
