"""scikit-learn's RandomForestRegressor on the forest benchmark's data (bench/forest-bench.ts).

Usage: /usr/bin/python3 bench/sklearn-forest.py DATA.json
DATA.json: {"Xtr", "ytr", "Xte", "params": {nEstimators, maxDepth, minSamplesLeaf, maxFeatures, seed},
            "njobs": [2, 1]}
Prints one JSON object: per n_jobs, fit and predict seconds and the test predictions.
"""
import json
import sys
import time

import numpy as np
from sklearn.ensemble import RandomForestRegressor
import sklearn

d = json.load(open(sys.argv[1]))
p = d['params']
Xtr = np.asarray(d['Xtr'], dtype=np.float64)
ytr = np.asarray(d['ytr'], dtype=np.float64)
Xte = np.asarray(d['Xte'], dtype=np.float64)
runs = []
for n_jobs in d['njobs']:
    m = RandomForestRegressor(n_estimators=p['nEstimators'], max_depth=p['maxDepth'],
                              min_samples_leaf=p['minSamplesLeaf'], max_features=p['maxFeatures'],
                              random_state=p['seed'], n_jobs=n_jobs)
    t0 = time.perf_counter()
    m.fit(Xtr, ytr)
    t1 = time.perf_counter()
    pred = m.predict(Xte)
    t2 = time.perf_counter()
    runs.append({'njobs': n_jobs, 'fitSeconds': t1 - t0, 'predictSeconds': t2 - t1,
                 'nodes': int(sum(e.tree_.node_count for e in m.estimators_)), 'predictions': pred.tolist()})
print(json.dumps({'sklearn': sklearn.__version__, 'runs': runs}))
