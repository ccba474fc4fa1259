"""The benchmarks of ``sprtec bench …``: each prints its figures against a floor measured in the same
run. Not tests: nothing here asserts, and nothing here imports the tests.
"""
