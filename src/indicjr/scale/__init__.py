"""Scale-out: batch generation for local models on a Ray cluster, feeding the same response store.

    replica.py     one model replica (a Ray Data callable class): hf: batches, or vLLM on a GPU
    ray_engine.py  the driver: what is missing from the store -> Ray Data -> replicas -> the store

Ray is an optional extra (`pip install 'indicjr[ray]'`) imported only inside these modules.
"""
