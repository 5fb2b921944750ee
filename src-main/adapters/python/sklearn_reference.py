"""scikit-learn's RandomForestRegressor on the same features, targets and folds as our forest.

The reference the TypeScript forest is held to in `pipedejavu evaluate`
(adapters/python/sklearn-reference.ts runs it with Debian's /usr/bin/python3, python3-sklearn).

    python3 sklearn_reference.py JOB.json OUT.json

JOB.json: {"X": [[...]], "y": [...], "folds": [{"name", "train": [i...], "test": [i...]}],
"trees", "depth", "minLeaf", "maxFeatures", "seed"}. OUT.json: {"folds": [{"name", "test",
"predicted"}], "fitSeconds"}, the seconds spent fitting over every fold.

The build copies this file to dist/python/ (scripts/build.mjs).
"""
import json
import sys
import time

import numpy as np
from sklearn.ensemble import RandomForestRegressor


def fit_folds(job):
    """Fits one forest per fold on its train rows; returns its predictions for the test rows and the fit time."""
    X = np.array(job["X"], dtype=np.float64)
    y = np.array(job["y"], dtype=np.float64)
    out = []
    fit_seconds = 0.0
    for fold in job["folds"]:
        tr = np.array(fold["train"], dtype=np.int64)
        te = np.array(fold["test"], dtype=np.int64)
        m = RandomForestRegressor(n_estimators=job["trees"], max_depth=job["depth"], min_samples_leaf=job["minLeaf"],
                                  max_features=job["maxFeatures"], n_jobs=2, random_state=job["seed"])
        t = time.perf_counter()
        m.fit(X[tr], y[tr])
        fit_seconds += time.perf_counter() - t
        out.append({"name": fold["name"], "test": fold["test"], "predicted": m.predict(X[te]).tolist()})
    return {"folds": out, "fitSeconds": fit_seconds}


def main(job_path, out_path):
    with open(job_path) as f:
        job = json.load(f)
    result = fit_folds(job)
    with open(out_path, "w") as f:
        json.dump(result, f)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
