"""The tile finder's training: a one-class YOLO11 (``models/finder.yaml``, slimmer than 'n') that boxes every tile,
face up or down, trained by ultralytics on the CPU on the synthetic hands (``training/synth.py``) with
``single_cls=True``; fine-tuned on more data; shipped as its PyTorch weights and their ONNX export, which detection
runs (``vision/finder.py``)."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

from training import paths

os.environ.setdefault("YOLO_OFFLINE", "1")


def train_finder(data: Path, runs: Path, epochs: int, imgsz: int, batch: int, hours: float) -> Path:
    """Train (or resume) the finder's base run ``runs/finder`` from scratch on ``data``; returns its best weights."""
    from ultralytics import YOLO

    runs = runs.resolve()  # ultralytics puts a relative project under its own runs folder
    run = runs / "finder"
    last = run / "weights" / "last.pt"
    t0 = time.time()
    if last.exists() and not (run / "done").exists():
        model = YOLO(str(last))
        model.train(resume=True, **({"time": hours} if hours else {}))  # a new time budget counts from now
    elif not (run / "done").exists():
        model = YOLO(str(paths.MODELS / "finder.yaml"))
        model.train(data=str(data / "data.yaml"), epochs=epochs, imgsz=imgsz, batch=batch, workers=2,
                    single_cls=True, project=str(runs), name="finder", exist_ok=True, plots=False,
                    device="cpu", cache="ram", mosaic=0.0, scale=0.25, degrees=0.0, translate=0.1,
                    fliplr=0.5, close_mosaic=2, patience=100, seed=0, deterministic=False, amp=False,
                    val=True, pretrained=False, time=hours or None)
    (run / "done").write_text(f"{time.time() - t0:.0f}\n")
    best = run / "weights" / "best.pt"
    return best if best.exists() else last


def finetune_finder(data: Path, extra: list[Path], runs: Path, imgsz: int, batch: int, hours: float,
                    epochs: int = 2, name: str = "finder_ft", init: Path | None = None) -> Path:
    """Go on training the finder from its best weights (or ``init``'s, another fine-tune's) on the synthetic hands
    plus ``extra`` datasets (hands whose faces are real tile photos, ``python -m training synth --art
    camerash:...``; real photos laid flat, ``--art flat:...``; training photos only), at a low learning rate. Resumes
    an unfinished run."""
    from ultralytics import YOLO

    runs = runs.resolve()  # ultralytics puts a relative project under its own runs folder
    run = runs / name
    last = run / "weights" / "last.pt"
    mixed = runs / f"{name}.yaml"
    names = (data / "data.yaml").read_text().split("names:", 1)[1]
    sets = [data, *extra]
    mixed.write_text("train:\n" + "".join(f"  - {d.resolve() / 'images' / 'train'}\n" for d in sets)
                     + "val:\n" + "".join(f"  - {d.resolve() / 'images' / 'val'}\n" for d in sets) + f"names:{names}")
    if last.exists() and not (run / "done").exists():
        YOLO(str(last)).train(resume=True, **({"time": hours} if hours else {}))
    elif not (run / "done").exists():
        model = YOLO(str(init or runs / "finder" / "weights" / "best.pt"))
        model.train(data=str(mixed), epochs=epochs, imgsz=imgsz, batch=batch, workers=2, single_cls=True,
                    project=str(runs), name=name, exist_ok=True, plots=False, device="cpu", cache="ram",
                    mosaic=0.0, scale=0.4, degrees=0.0, translate=0.1, fliplr=0.5, close_mosaic=0, seed=0,
                    deterministic=False, amp=False, optimizer="AdamW", lr0=0.0004, lrf=0.2, warmup_epochs=0,
                    time=hours or None)
    (run / "done").write_text("\n")
    best = run / "weights" / "best.pt"
    return best if best.exists() else last


def export_finder(weights: Path, set_finder: bool = False, models: Path = paths.MODELS,
                  row_finder: bool = False) -> Path:
    """A finder run's weights shipped to ``models``: ``tile_finder.pt`` (the PyTorch weights without the optimizer,
    to train on from) and ``tile_finder.onnx``, its ONNX export, which detection runs (``vision/finder.py``); with
    ``set_finder``, its ONNX export only, as ``set_finder.onnx`` (the finder for photos of sets laid out); with
    ``row_finder``, as ``row_finder.onnx`` (the finder of rows of tiles standing). The ONNX export is stored compact
    (``training/compact.py``: the same weights bit for bit in about half the bytes; the row finder's as int8 rows, in
    about a quarter, near the same weights)."""
    from ultralytics import YOLO
    from ultralytics.utils.torch_utils import strip_optimizer

    from training.compact import compact

    tmp = weights.parent / "ship.pt"
    shutil.copy(weights, tmp)
    strip_optimizer(str(tmp))  # the model and its metadata only
    if set_finder or row_finder:
        onnx = Path(YOLO(str(tmp), task="detect").export(format="onnx", dynamic=True, simplify=False, opset=17,
                                                          imgsz=416))
        onnx = Path(shutil.move(onnx, models / ("row_finder.onnx" if row_finder else "set_finder.onnx")))
    else:
        dest = models / "tile_finder.pt"
        shutil.copy(tmp, dest)
        onnx = Path(YOLO(str(dest), task="detect").export(format="onnx", dynamic=True, simplify=False, opset=17,
                                                           imgsz=416))
    compact(onnx, int8=row_finder)
    return onnx


def tune_finder(train: list[Path], val: list[Path], init: Path, run: Path, minutes: float, imgsz: int = 416,
                batch: int = 8) -> Path:
    """Go on training the finder ``init`` (a ``tile_finder.pt``) for ``minutes`` on ``train`` (photo folders, or
    text files listing photos; labels at ultralytics' paths beside them, any of the 43 classes: trained as one),
    validated on ``val``, in the run folder ``run``, at the fine-tunes' low learning rate; resumes an unfinished run.
    Returns its best weights."""
    from ultralytics import YOLO

    from vision.names import NAMES

    data = run.parent / f"{run.name}.yaml"
    last = run / "weights" / "last.pt"
    run.parent.mkdir(parents=True, exist_ok=True)
    data.write_text("train:\n" + "".join(f"  - {d.resolve()}\n" for d in train)
                    + "val:\n" + "".join(f"  - {d.resolve()}\n" for d in val)
                    + "names:\n" + "".join(f"  {k}: '{n}'\n" for k, n in enumerate(NAMES)))
    if last.exists() and not (run / "done").exists():
        YOLO(str(last)).train(resume=True)
    elif not (run / "done").exists():
        YOLO(str(init)).train(data=str(data), epochs=100, time=minutes / 60, imgsz=imgsz, batch=batch, workers=0,
                              single_cls=True, project=str(run.parent.resolve()), name=run.name, exist_ok=True,
                              plots=False, device="cpu", cache="ram", mosaic=0.0, scale=0.4, degrees=0.0,
                              translate=0.1, fliplr=0.5, close_mosaic=0, seed=0, deterministic=False, amp=False,
                              optimizer="AdamW", lr0=0.0004, lrf=0.2, warmup_epochs=0, patience=100, verbose=False)
    (run / "done").write_text("\n")
    best = run / "weights" / "best.pt"
    return best if best.exists() else last

