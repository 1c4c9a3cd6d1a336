"""Settings shared by the whole suite.

Hypothesis runs without a deadline (the machine is shared; speed is measured
by the benchmarks, never by tests).  ``HYPOTHESIS_PROFILE=long`` runs many
more examples for a deeper search.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile("default", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile(
    "long", deadline=None, max_examples=2000, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
