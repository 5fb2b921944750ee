"""scikit-learn's RandomForestRegressor as a test oracle (test/helpers/sklearn-oracle.ts).

    python3 sklearn_forest.py DATA.json

DATA.json: {"X", "y", "Xtest", "params"}; prints the predictions for Xtest as a JSON list.
"""
import json, sys
import numpy as np
from sklearn.ensemble import RandomForestRegressor
d = json.load(open(sys.argv[1]))
p = d['params']
m = RandomForestRegressor(n_estimators=p['nEstimators'], max_depth=p['maxDepth'],
                          min_samples_leaf=p['minSamplesLeaf'], min_samples_split=p['minSamplesSplit'],
                          max_features=p['maxFeatures'], bootstrap=p['bootstrap'],
                          random_state=p['seed'], n_jobs=1)
m.fit(np.array(d['X'], dtype=np.float64), np.array(d['y'], dtype=np.float64))
print(json.dumps(m.predict(np.array(d['Xtest'], dtype=np.float64)).tolist()))
