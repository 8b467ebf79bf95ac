"""mjscore's training wing: the synthetic data generator and the training, shipping and description of the tile
networks that ``vision`` runs (``python -m training --help``).

Installed with the ``train`` extra (ultralytics, PyTorch); the photo reader, the scorer and the service never import
it. It imports ``vision`` (crops, class names, the detector's weights' folder), never the other way round.
"""
