"""The option groups ``python -m training``'s commands share (``training/cli.py`` builds its parser from them): where
runs, models and data are, the finder's, the classifier's and a face network's training options, the model card's
runs."""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from pathlib import Path

from training import paths
from vision.crops import CROP
from vision.names import NAMES

MOST_THREADS = 256  # PyTorch threads: beyond, the machine cannot start them (an ImportError deep in a library)
MOST_BATCHES = 10**7  # a run's --steps: some years of this machine's time


def bounded(kind: type[int] | type[float], least: float, most: float, above: bool = False) -> Callable[[str], float]:
    """An argparse type: a finite ``kind`` from ``least`` (above it, where ``above``) to ``most``; anything else is
    argparse's one-line error naming the flag and the range, before any work starts.

    >>> bounded(float, 0, 10080, above=True)("2.5"), bounded(int, 1, 8)("8")
    (2.5, 8)
    >>> bounded(float, 0, 1)("nan")
    Traceback (most recent call last):
    argparse.ArgumentTypeError: must be a number from 0 to 1, not 'nan'
    """
    what = "a whole number" if kind is int else "a number"
    low, high = (f"{v:g}" if v != int(v) else str(int(v)) for v in (least, most))
    said = f"must be {what} above {low} up to {high}" if above else f"must be {what} from {low} to {high}"

    def read(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            value = None
        low_ok = value is not None and math.isfinite(value) and (least < value if above else least <= value)
        if not low_ok or value > most:
            raise argparse.ArgumentTypeError(f"{said}, not {text!r}")
        return value

    return read


def runs(p: argparse.ArgumentParser) -> None:
    p.add_argument("--runs", type=Path, default=paths.runs(), help="training runs' folder (default: %(default)s)")


def models(p: argparse.ArgumentParser) -> None:
    p.add_argument("--models", type=Path, default=paths.MODELS,
                   help="where the shipped files go (default: the folder detection reads, %(default)s)")


def data(p: argparse.ArgumentParser, also: bool = True) -> None:
    p.add_argument("--data", type=Path, default=paths.datasets() / "hands",
                   help="a generated dataset (python -m training synth; default: %(default)s)")
    if also:
        p.add_argument("--also", type=Path, nargs="*", default=[], help="more synthetic datasets read beside --data")


def real(p: argparse.ArgumentParser) -> None:
    p.add_argument("--real", type=Path, default=paths.real(),
                   help="the real camerash photos; their training part is trained on (default: %(default)s)")


def calibration(p: argparse.ArgumentParser, required: bool = False, default: str = "") -> None:
    p.add_argument("--calibration", type=Path, required=required,
                   help="the dataset on whose val crops the int8 network's ranges are set" + default)


def finder_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--imgsz", type=int, default=416, help="training image size (default: %(default)s)")
    p.add_argument("--batch", type=int, default=16, help="images a batch (default: %(default)s)")
    p.add_argument("--hours", type=float, default=0.0, help="train for this long (the schedule fits it)")


def classifier_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--classifier-run", default="classifier", help="the classifier run's name under --runs")
    p.add_argument("--init", type=Path, help="start from this run checkpoint (a fine-tune)")
    p.add_argument("--lr", type=float, help="the one-cycle schedule's peak (default 2e-3)")
    p.add_argument("--crop", type=int,
                   help=f"crop side in pixels ({CROP} by default, 96 shipped; detection reads it from the weights)")
    p.add_argument("--marks", type=float, default=0.0, help="share of training crops given a random corner index mark")
    p.add_argument("--faults", type=float, default=0.0,
                   help="share of training crops given a camera's faults: out of focus, shaken or a lamp's highlight")
    p.add_argument("--fault-kinds", type=float, nargs=3, metavar=("FOCUS", "SHAKE", "GLARE"),
                   help="how the faults are weighed: out of focus, shaken, a lamp's highlight (default: a third each)")
    p.add_argument("--fault-blur", type=float, nargs=2, default=[0.6, 4.0], metavar=("LEAST", "MOST"),
                   help="the out-of-focus Gaussians' sigmas in crop pixels (default: 0.6 4)")
    p.add_argument("--distil", type=float, default=0.0,
                   help="with --init: the weight of a loss holding each crop's names to those the --init network "
                        "gives it without faults")
    p.add_argument("--threads", type=bounded(int, 1, MOST_THREADS), default=2,
                   help="PyTorch threads (default: %(default)s)")
    p.add_argument("--device", default="cpu", help="where PyTorch trains (cpu, cuda; default: %(default)s)")
    p.add_argument("--leave-out", nargs="*", default=[], choices=NAMES, metavar="NAME",
                   help="tiles of these names are left out of --data's crops (not --also's)")


def steps(p: argparse.ArgumentParser, steps: int) -> None:
    """A face network's or the refiner's run: its batches, peak learning rate and threads."""
    p.add_argument("--steps", type=bounded(int, 1, MOST_BATCHES), default=steps, help="batches of 128 to train for")
    p.add_argument("--lr", type=float, default=2e-3, help="the one-cycle schedule's peak (default: %(default)s)")
    p.add_argument("--threads", type=bounded(int, 1, MOST_THREADS), default=2,
                   help="PyTorch threads (default: %(default)s)")


def card_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--finetune", nargs="*", default=[],
                   help="the fine-tuning runs shipped on top of the base run, in the order they ran")
    p.add_argument("--set-finder-run", help="the fine-tuning run shipped as the set finder")
    p.add_argument("--row-finder-runs", nargs="*", default=[],
                   help="the fine-tuning runs of the row finder, in the order they ran (the last shipped)")
    p.add_argument("--classifiers", nargs="*", default=["classifier"],
                   help="the shipped classifier's runs, in the order they ran")
    p.add_argument("--reader-runs", nargs="*", default=[], help="the shipped readers' runs under --runs")
    p.add_argument("--soft-run", help="the classifier run shipped as the soft classifier")
    p.add_argument("--shaken-run", help="the classifier run shipped as the shaken classifier")
    p.add_argument("--corners-run", help="the face network's run shipped (python -m training corners)")
    p.add_argument("--row-corners-run", help="the face network's run shipped beside it for rows standing "
                   "(ship-corners --rows)")
    p.add_argument("--refiner-run", help="the face refiner's run shipped (python -m training refiner)")
    p.add_argument("--bench", type=Path, default=paths.bench_file(),
                   help="bench/eval_vision.py's output (default: %(default)s)")
    p.add_argument("--allow-missing", action="store_true",
                   help="write the card even where a run named has no records left (it then says only that)")
