"""The model card, ``models/README.md``, written from what the training runs and the benchmark recorded.

``python -m training card [--runs DIR] [--finetune NAME ...]``: the finder's base run (``runs/finder``), the
fine-tuning runs shipped on top of it (``runs/NAME``, in order), the classifier run (``runs/classifier``), the
datasets they read (each run's own record) and ``bench/eval_vision.py``'s output. Nothing here is typed in by
hand but the targets; the card's last part, from ``## Notes`` on (the notes, measurements made beside the runs,
dated, and the reproduce commands), is written by hand in the card itself and kept as it is each time the card is
written. A shipped run's records are also kept in the repository (``models/runs``, ``keep_records``), and read from
there when its run folder is gone (a new machine's cache is empty); a run named whose records are in neither place
stops the card, by name (``MissingRecords``), rather than lose what the card says of it.
"""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

from training import paths
from training.styles import HELD_OUT_STYLES
from vision.config import DetectorConfig

KEPT = "## Notes"  # the heading from which on the card is written by hand (``kept_part``)
RECORDS = paths.MODELS / "runs"  # shipped runs' records, as their run folders held them
RECORD_FILES = ("summary.json", "results.csv", "args.yaml")  # what the card reads of a run
FINDER_KEYS = ("imgsz", "batch", "epochs", "time", "single_cls", "mosaic", "scale", "degrees", "fliplr",
               "close_mosaic", "optimizer", "lr0", "lrf", "cache")


class MissingRecords(Exception):
    """Runs named for the card whose records are neither in their run folder nor kept in the repository."""

    def __init__(self, names: list[str], runs: Path) -> None:
        super().__init__(f"the records of {', '.join(names)} are neither under {runs} nor kept in {RECORDS}: the card "
                         "written now would say only that no such run was recorded, losing what it says of them "
                         "(--allow-missing writes it so all the same)")
        self.names = names


def keep_records(runs: Path, name: str, records: Path = RECORDS) -> list[Path]:
    """Copy what the card reads of run ``name`` (its ``RECORD_FILES`` and a fine-tune's data list ``NAME.yaml``) from
    ``runs`` to ``records``, to be committed with the weights it shipped; returns the files copied."""
    files = [runs / name / f for f in RECORD_FILES] + [runs / f"{name}.yaml"]
    kept = []
    for f in (f for f in files if f.exists()):
        dest = records / f.relative_to(runs)
        dest.parent.mkdir(parents=True, exist_ok=True)
        kept.append(Path(shutil.copy(f, dest)))
    return kept


def _record(runs: Path, relative: str) -> Path:
    """A run's record: in ``runs`` while the run is there, else as kept in the repository (``keep_records``)."""
    path = runs / relative
    return path if path.exists() else RECORDS / relative


def unrecorded(runs: Path, names: list[str]) -> list[str]:
    """The runs among ``names`` of which nothing the card reads (``RECORD_FILES``) is under ``runs`` or kept in the
    repository (``keep_records``): a card written now would say only that no such run was recorded."""
    return [n for n in names if not any(_record(runs, f"{n}/{f}").exists() for f in RECORD_FILES)]


def _summary(runs: Path, name: str) -> dict | None:
    """What a classifier or reader run recorded (``train_classifier``, ``train_reader``), or None if it left none."""
    path = _record(runs, f"{name}/summary.json")
    return json.loads(path.read_text()) if path.exists() else None


def _trained_styles(runs: Path, classifiers: list[str] | tuple[str, ...]) -> list[str]:
    """The tile styles of the images the shipped classifier's runs trained on (each dataset's sidecars say)."""
    styles: set[str] = set()
    for name in classifiers:
        data = (_summary(runs, name) or {}).get("data", "")
        for d in filter(None, data.split(" + ")):
            for js in (Path(d) / "layout" / "train").glob("*.json"):
                styles.add(json.loads(js.read_text())["style"])
    return sorted(styles - set(HELD_OUT_STYLES))


def _rows(path: Path) -> list[dict[str, str]]:
    if not path.exists():
        return []
    with path.open() as f:
        return [{k.strip(): v.strip() for k, v in r.items()} for r in csv.DictReader(f)]


def _args(path: Path) -> dict[str, str]:
    out = {}
    if path.exists():
        for line in path.read_text().splitlines():
            if ":" in line:
                k, v = line.split(":", 1)
                out[k.strip()] = v.strip()
    return out


def _val(row: dict[str, str]) -> str:
    return (f"precision {float(row['metrics/precision(B)']):.3f}, recall {float(row['metrics/recall(B)']):.3f}, "
            f"mAP50 {float(row['metrics/mAP50(B)']):.3f}, mAP50-95 {float(row['metrics/mAP50-95(B)']):.3f}")


def _finder(runs: Path, finetune: list[str], set_finder: str | None = None,
            row_finder: list[str] | tuple[str, ...] = ()) -> list[str]:
    """The finder's base run and the fine-tunes shipped on top of it, in order; ``set_finder``: the fine-tune shipped
    as the set finder (``models/set_finder.onnx``); ``row_finder``: the fine-tunes of the row finder
    (``row_finder.onnx``), in order, the last shipped."""
    lines = ["## Finder (ultralytics, CPU, from scratch: no pretrained weights)"]
    base, args = _rows(_record(runs, "finder/results.csv")), _args(_record(runs, "finder/args.yaml"))
    if base:
        lines += [
            f"- base run: `{args.get('data', '?')}`; " + ", ".join(f"{k}={args[k]}" for k in FINDER_KEYS if k in args),
            f"- epochs run: {len(base)}; training time {float(base[-1]['time']) / 3600:.2f} h (2 shared CPU cores)",
            f"- last epoch val (synthetic, one class): {_val(base[-1])}",
        ]
    else:
        lines.append("- no base finder run recorded")
    for k, name in enumerate(finetune):
        lines += _finetune(runs, name, "then fine-tuned", ", shipped" if k == len(finetune) - 1 else "")
    if set_finder:
        lines += _finetune(runs, set_finder, "the set finder", ", shipped as `set_finder.onnx`")
    for k, name in enumerate(row_finder):
        lines += _finetune(runs, name, "then fine-tuned" if k else "the row finder",
                           ", shipped as `row_finder.onnx`" if k == len(row_finder) - 1 else "")
    lines.append("- detection looks at the whole photo at 512 px, then at the region holding the tiles at 512 px "
                 "when that gives them 1.2 times the pixels (`DetectorConfig.first_imgsz`, `zoom_imgsz`, `zoom_gain`; "
                 "a first look of few or big tiles is taken again at 416, as trained); it runs the ONNX export "
                 "(`python -m training export`) in ONNX Runtime, "
                 "letterboxed and suppressed as ultralytics does (`vision/finder.py`); a photo in which it finds 32 "
                 "tiles or more is looked at again by the set finder (`DetectorConfig.set_tiles`); a tile the first "
                 "look found with 0.5 or more that the later look lost is kept (`DetectorConfig.first_kept`); a photo "
                 "of many small tiles the first look was unsure of (a whole table) is looked at whole at 1024 px, and "
                 "those boxes taken when more, small and surer (`DetectorConfig.fine_imgsz`); a photo boxed in more "
                 "pieces than a hand photo shows, doubted, is looked at shrunk "
                 f"{DetectorConfig().shrunk:g} times, and those boxes taken where they hold the first as parts of a "
                 "hand's tiles (`DetectorConfig.shrunk`: tiles standing near a low camera, boxed by their circles and "
                 "sticks)"
                 + (f"; a hand named unsurely of whose tiles the face network finds "
                    f"{DetectorConfig().rows_standing:.0%} or more standing is looked at again by the row finder, "
                    "and its boxes taken (`DetectorConfig.rows_standing`); so is a hand whose boxes the tile finder is "
                    "unsure of, and its boxes taken where they hold the tile finder's as parts of tiles "
                    "(`DetectorConfig.rows_parts`), or where the row finder is the surer and some tiles stand "
                    "(`DetectorConfig.rows_surer`), or where it found fewer than a hand's tiles, standing "
                    "(`DetectorConfig.rows_few`); not where the face network finds the tiles lying and the tile "
                    "finder doubted them only a little (`DetectorConfig.rows_lying_doubt`)" if row_finder else ""))
    return lines


def _finetune(runs: Path, name: str, what: str, shipped: str) -> list[str]:
    """A finder fine-tune's settings, data and last val, from its records (none: nothing)."""
    ft, fargs = _rows(_record(runs, f"{name}/results.csv")), _args(_record(runs, f"{name}/args.yaml"))
    if not ft:
        return []
    sets = json.dumps(_train_sets(_record(runs, f"{name}.yaml")))
    model = Path(fargs.get("model", "?"))  # a run's weights/best.pt (or last.pt), or a shipped file
    start = model.parts[-3] if len(model.parts) >= 3 and model.parts[-2] == "weights" else str(model)
    return [
        f"- {what} (`{name}`{shipped}, from `{start}`): {len(ft)} epochs, {float(ft[-1]['time']) / 60:.0f} min, "
        + ", ".join(f"{k}={fargs[k]}" for k in FINDER_KEYS if k in fargs) + f"; data {sets}",
        f"- `{name}`, last epoch val (the same sets' val parts, one class): {_val(ft[-1])}",
    ]


def _train_sets(yaml: Path) -> list[str]:
    if not yaml.exists():
        return []
    text = yaml.read_text().split("val:", 1)[0]
    return [line.strip()[2:] for line in text.splitlines() if line.strip().startswith("- ")]


CLASSIFIER_DETECTION = (
    "- detection: each tile is cut turned straight by its tilt, the commonest direction of its edges modulo a quarter "
    "turn (`vision/crops.py`, `DetectorConfig.straighten`; see the notes), then named; it was trained on tiles cut as "
    "they lie at any angle; a photo of a hand it names unsurely is named again turned upright, stretched and cut to "
    "the faces, as if seen from above (tiles lying seen from a player's seat: `vision/rectify.py`, "
    "`DetectorConfig.rectify_below`); the crops of a soft or dim photo are named sharpened or with their levels "
    "stretched too, and those it names surer kept (`vision/clearer.py`, `DetectorConfig.sharpen_below`, `dim_below`)")
SOFT_DETECTION = (
    "- detection: it names the tiles of a photo whose crops' median sharpness (`vision/clearer.py`) is below "
    "`DetectorConfig.soft_below` (0.006: out of focus; sharp photos measure 0.04 and more) and whose tiles are "
    "`soft_side` (64) px or more, in the tile classifier's place, sharpened as above (`docs/photo.md`); it names sharp "
    "or shaken photos worse than the tile classifier, so it names no other photo")
SHAKEN_DETECTION = (
    "- detection: it names the tiles of a photo whose crops' median streak (`vision/clearer.py`: sharp across a shake, "
    "soft along it) is below `DetectorConfig.shaken_below` and whose tiles are `soft_side` (64) px or more, in the "
    "tile classifier's place, sharpened as above (`docs/photo.md`); it names sound photos a little worse than the "
    "tile classifier, so it names no other photo")


def _classifier(runs: Path, names: list[str] | tuple[str, ...],
                heading: str = "## Classifier (PyTorch, CPU; ONNX Runtime at detection)",
                detection: str = CLASSIFIER_DETECTION) -> list[str]:
    """The shipped classifier's runs, in the order they ran (a base run, then fine-tunes started from it)."""
    lines = [heading]
    for k, name in enumerate(names):
        s = _summary(runs, name)
        if s is None:
            lines.append(f"- no classifier run recorded under `{name}`")
            continue
        h = s["history"][-1]
        init = Path(s.get("init") or "")
        start = f", from `{init.parent.name if init.name == 'last.pt' else init.name}`" if s.get("init") else ""
        lines += [
            f"- `{name}`{', shipped' if k == len(names) - 1 else ''}{start}: {len(s['history'])} of {s['epochs']} "
            f"epochs, {s['seconds_total'] / 60:.0f} min; data `{s.get('data', '?')}`: {s['train_crops']} synthetic "
            f"crops of {s.get('crop', 64)} px (2 jittered per tile) + {s['real_train']} real photos (x24 turned)",
            f"- AdamW, one-cycle lr {s.get('lr', 2e-3):g}, batch 128, label smoothing 0.05; photometric jitter and "
            "style jitter (channel swaps, grey, stroke width, zoom/turn)" + _faults(s),
            f"- last epoch: synthetic val top-1 {h['synth_val']['top1']:.4f} (up direction "
            f"{h['synth_val']['orient']:.4f}), held-out real photos top-1 {h['real_holdout']['top1']:.4f} "
            f"({h['real_holdout']['n']} photos), one crop each (detection averages quarter "
            "turns, `DetectorConfig.turns`: see the evaluation)",
            "- per epoch (synthetic val top-1 / held-out real top-1): " + ", ".join(
                f"{r['epoch'] + 1}: {r['synth_val']['top1']:.3f}/{r['real_holdout']['top1']:.3f}"
                for r in s["history"]),
        ]
    lines.append(detection)
    return lines


def _faults(s: dict) -> str:
    """What a run's summary says of the camera's faults and the distillation it trained with (none: nothing)."""
    weights = s.get("fault_kinds") or (1, 1, 1)
    kinds = [k for k, w in zip(("out of focus", "shaken", "a lamp's highlight"), weights, strict=True) if w]
    blur = s.get("fault_blur") or (0.6, 4.0)
    sizes = [size for size, w in ((f"blur {blur[0]:g} to {blur[1]:g} px", weights[0]),
                                  ("streaks of 2 to 13 px", weights[1])) if w]
    said = [f"a camera's faults on {s['faults']:.0%} of the crops ({'; '.join([', '.join(kinds), *sizes])}: "
            "`classifier.camera_faults`)"] if s.get("faults") else []
    said += [f"its names held to its start's on the crops without them (distillation, weight {s['distil']:g})"] \
        if s.get("distil") else []
    said += [f"a corner index mark on {s['marks']:.0%}"] if s.get("marks") else []
    return "; " + ", ".join(said) if said else ""


CAPTION_TEXT = (
    "## Caption reader (not trained here; ONNX Runtime at detection)",
    "- PaddleOCR's PP-OCRv4 mobile text-line recogniser (Apache-2.0) from the `rapidocr-onnxruntime` 1.4.4 wheel "
    "on PyPI: all its 6625 outputs kept (the blank and 6624 characters: Chinese, digits, Latin letters, "
    "symbols), its hard-swishes and learnable affine blocks folded into fewer steps (`training/folds.py`: "
    "the same function in 0.78 of the time), its convolutions but the first 12 of 38 int8, one scale per output "
    "channel, their inputs uint8 at scales calibrated on the lines the detector reads in 100 generated photos "
    "(`training/quantize.py`: a run of two lines in 0.65 of the time; all 38 int8 lost picture flowers' "
    "characters), its other weights stored as float16 and its four largest (the last layer, three of 480 x 480) "
    "as int8, one scale per output (`python -m training caption WHEEL`; 3.2 MB, 10.9 as shipped by the wheel; "
    "every convolution float, `--float`, 4.0 MB). Until 2026-11-28 its last layer was cut to the blank, the "
    "digits and the Latin letters (3.9 MB); a "
    "caption is still read among those alone, their probabilities taken among them, so it reads as the cut one "
    "did. Nothing is fetched at run time.",
    "- detection: a tile whose flower probability (after the character, flower and mark readers) is 0.2 or more "
    "and whose name is given less than 0.7 is cut out turned upright by the classifier's up head, and the band "
    "under its picture is read, and the band of it turned half a turn (`vision/captions.py`); a reading that is a "
    "caption word (SPRING, Spring, SPR ... each flower's words in `vision/captions.CAPTIONS`) gives that flower "
    "0.8 of the tile's names (`DetectorConfig.caption_weight`). When a tile of the photo is so read, the flowers' "
    "probabilities of the tiles read without a caption are halved (`uncaptioned`): the set captions its flowers. "
    "The band across the top (0.4 of the tile's width high), then the top corners (squares of 0.45 of its "
    "width) where it named none, of the end as it stands, then the other end's band where those named none, of "
    "the tiles whose caption named no flower are read among every character: one holding a flower's "
    "character (梅蘭兰菊竹, 春夏秋冬) with 0.35 or more (0.25 where the names give the tile 0.3 or more of a "
    "flower) names that flower as a caption does (a brush-drawn 冬 "
    "the recogniser takes for 券 names nothing); when one does, the set prints its flowers' characters, and the "
    "photo's other tiles that the names give 0.05 or more of a flower (`character_gate`), named surely or not, "
    "are read for theirs too (`vision/captions.py`, `docs/photo.md`).",
    "",
)
FAMILY_TEXT = {  # a reader family: its heading's name, its tiles, their names, and when detection asks it
    "flower": ("Flower reader", "flowers", "1f-8f", "flower probability (the classifier's, 1f-8f together)"),
    "character": ("Character reader", "character tiles", "1m-9m",
                  "character probability (the classifier's, 1m-9m together)"),
    "dot": ("Dot reader", "dot tiles", "1p-9p", "dot probability (the classifier's, 1p-9p together)"),
    "mark": ("Mark reader", "tiles of sets that print index numerals", "the numeral 1-9",
             "probability of the tiles that may print a numeral (suits and flowers together)"),
    "seat": ("Seat reader", "flowers", "their seat 1-4 (by numeral, character, caption or picture)",
             "flower probability (after the captions, its name a flower)"),
}


def _readers(runs: Path, names: list[str] | tuple[str, ...]) -> list[str]:
    """The shipped readers' runs (``training.reader.train_reader``), a section each."""
    config = DetectorConfig()
    lines: list[str] = []
    for name in names:
        s = _summary(runs, name)
        if s is None:
            lines += ["## Reader", f"- no reader run recorded under `{name}`", ""]
            continue
        title, tiles, _, gate = FAMILY_TEXT[s.get("family", "flower")]
        v = s["history"][-1]["synth_val"]
        right, family = v.get("named_right", v.get("flowers_right")), v.get("family", v.get("flowers"))
        called = v.get("others_called_in", v.get("others_called_flower"))
        hard = (f", {s['hard_others']:.0%} of them those `{Path(s['init']).parent.name}` took most for {tiles}"
                if s.get("hard_others") else "")
        marks, seats = s.get("family") == "mark", s.get("family") == "seat"
        lines += [
            f"## {title} (PyTorch, CPU; ONNX Runtime at detection)",
            f"- `{name}`, shipped, from `{Path(s['init']).parent.name}`: {s['history'][-1]['step']} of {s['steps']} "
            f"batches of {s['batch']}, {s['seconds_total'] / 60:.0f} min; data `{s['data']}`: {s['train_crops']} "
            f"upright crops of {s['crop']} px " + ("(every tile whose style records a numeral on it, as many known to "
                                                    "print none)" if marks else f"(all {tiles} of the hands, 1.2 "
                                                    f"times as many other tiles{hard}, the real training photos)"),
            f"- AdamW, one-cycle lr {s['lr']:g}, label smoothing 0.05, the classifier's jitter; half of each batch "
            "upside down, its up head told which",
            f"- last check (the datasets' val parts, each crop upright and upside down): "
            f"{'flowers whose seat was' if seats else tiles} named right "
            f"{right:.4f} of {family}, other tiles called one of them {called} of {v['others']}, up told right "
            f"{v['up_right']:.4f}",
            f"- detection: a tile whose {gate} is {config.reader_gate:g} or more and whose name is given less than "
            f"{config.reader_sure:g} is "
            "read again, once, turned upright by the classifier's up head, and " + (
                "each name is weighed by how likely the reading is for a tile of that name: the numeral it prints, "
                "or none (`vision/readers.py`, `mix_marks`); the suits' tiles named surely are read too, and those "
                f"read with a numeral not their name's so weighed where {config.marks_least} or more of them and "
                f"{config.marks_agree:g} of them read their own name's numeral: the set prints indices "
                "(`marks_printed`, `marks_doubt`)" if marks else "its flower probability is shared again "
                "among the flowers, each weighed by its seat's probability, what the reader gives other shared "
                "evenly (`vision/readers.py`, `mix_seats`)" if seats else "the reader's names are averaged half "
                "and half with the classifier's (`vision/readers.py`, `DetectorConfig.reader_gate`, "
                "`reader_sure`, `reader_weight`)"),
            "",
        ]
    return lines


def _corners(runs: Path, name: str, rows: str | None = None) -> list[str]:
    """The shipped face network's run (``training.corners.train_corners``), and that of the network for rows standing
    shipped beside it (``rows``; None: none)."""
    from vision.finding import FEW

    c = DetectorConfig()
    s = _summary(runs, name)
    if s is None:
        return ["## Face network", f"- no face network run recorded under `{name}`", ""]
    r = _summary(runs, rows) if rows else None
    return [
        "## Face network (PyTorch, CPU; ONNX Runtime at detection)",
        *_corners_run(name, s, "shipped"),
        *(_corners_run(rows, r, "shipped beside it as the network for rows standing") if r else []),
        *([f"- no run of the network for rows standing recorded under `{rows}`"] if rows and r is None else []),
        f"- detection: a photo of {FEW} to {c.set_tiles - 1} tiles (a hand's), {c.faces_side:g} px or larger, named "
        f"with less than {c.faces_below:g} on average, "
        f"{c.faces_standing:.0%} of whose tiles or more stand, is named again from its faces cut flat, and that "
        f"reading taken when surer by {c.faces_gain:g} (`vision/faces.py`, `DetectorConfig.faces_below`); a photo "
        "looked at as from above (`rectify_below`) is also looked at with its faces cut flat (`faces_look`), and only "
        "so where its tiles stand (`standing_not_stretched`); a tile its face cut flat names with "
        f"{c.flat_sure:g} or more, surer than its crop as cut, takes that name (`flat_sure`)"
        + ("; in a photo of tiles standing, the faces are those the network for rows standing finds" if r else ""),
        "",
    ]


def _refiner(runs: Path, name: str) -> list[str]:
    """The shipped face refiner's run (``training.refine.train_refiner``)."""
    from vision.faces import REFINE_INSET

    s = _summary(runs, name)
    if s is None:
        return ["## Face refiner", f"- no face refiner run recorded under `{name}`", ""]
    v, found = s["history"][-1]["val"], s["history"][0]["val_found"]
    return [
        "## Face refiner (PyTorch, CPU; ONNX Runtime at detection)",
        f"- `{name}`: {s['history'][-1]['step']} of {s['steps']} batches of {s['batch']}, "
        f"{s['seconds_total'] / 60:.0f} min; data `{s['data']}`: {s['train_crops']} crops of {s['crop']} px, each "
        f"tile's face as each of `{Path(s['faces']).name}`'s networks finds it in its box jittered by a twentieth of "
        "its side, and the rows network's moved at random, cut flat into a square with a margin around it; the faces' "
        "corners as the generator drew them",
        f"- AdamW, one-cycle lr {s['lr']:g}, smooth L1 on the corners (the square's units); the classifier's light "
        "jitter",
        f"- last check ({s['val_crops']} val crops, both networks' faces as found): corners off by "
        f"{v['all_p50']:.4f} of the square at the median ({v['all_p90']:.4f} at the 90th percentile), "
        f"{found['all_p50']:.4f} as found; the tiles lying {v['lying_p50']:.4f} ({v['lying_p90']:.4f}), "
        f"{found['lying_p50']:.4f} as found (the face cut "
        f"{REFINE_INSET:g} of the square in from its edges)",
        f"- detection: each face the face network finds whose short side is under {DetectorConfig().refine_thinner:g} "
        f"of its long one (seen at a grazing angle) found again, {DetectorConfig().faces_refined} time(s), before it "
        "is cut flat (`DetectorConfig.faces_refined`, `refine_thinner`)",
        "",
    ]


def _corners_run(name: str, s: dict, what: str) -> list[str]:
    """A face network run's lines (its ``summary.json``, ``s``)."""
    v = s["history"][-1]["val"]
    return [
        f"- `{name}`, {what}: {s['history'][-1]['step']} of {s['steps']} batches of {s['batch']}, "
        f"{s['seconds_total'] / 60:.0f} min; data `{s['data']}`: {s['train_crops']} crops of {s['crop']} px (every "
        "faced tile 60% visible or more, twice, around its box jittered by a twentieth of its side, cut straight by "
        "its tilt as detection cuts it), the faces' corners as the generator drew them",
        f"- AdamW, one-cycle lr {s['lr']:g}, smooth L1 on the corners (the crop's units), the across and standing "
        "logits' cross-entropy at a tenth each; the classifier's light jitter",
        f"- last check ({s['val_crops']} val crops): corners off by {v['corner_p50']:.4f} of the crop at the median "
        f"({v['corner_p90']:.4f} at the 90th percentile), across told right {v['across']:.4f}"
        + (f", standing told right {v['stands']:.4f}" if "stands" in v else ""),
    ]


def _figure(d: dict, *keys: str) -> float | None:
    for k in keys:
        d = d.get(k, {}) if isinstance(d, dict) else {}
    return d if isinstance(d, float | int) and not isinstance(d, bool) else None


def _evaluation(bench: dict) -> list[str]:
    lines = ["## Evaluation (`python -m bench.eval_vision`)"]
    if "mjscore" not in bench:
        return [*lines, "- not run yet for these weights"]
    m, b = bench["mjscore"], bench.get("mahjong-detector", {})
    rows = [  # (figure, target test, mjscore keys, baseline keys)
        ("tiles read right, held-out style, all 43 classes", ">= 0.99", ("synthetic_hands", "all", "read_right"), None),
        ("tiles read right, held-out style, the baseline's 34 classes", "ahead",
         ("synthetic_hands", "baseline_classes", "read_right"), ("synthetic_hands", "baseline_classes", "read_right")),
        ("mAP50, held-out style, the baseline's 34 classes", "ahead", ("synthetic_hands", "baseline_classes", "map50"),
         ("synthetic_hands", "baseline_classes", "map50")),
        ("mAP50, held-out style, all 43 classes", "-", ("synthetic_hands", "all", "map50"), None),
        ("tiles read right, held-out style, tile sets laid out in grids, the baseline's 34 classes", "ahead",
         ("synthetic_sets", "baseline_classes", "read_right"), ("synthetic_sets", "baseline_classes", "read_right")),
        ("tiles read right, held-out style, tile sets laid out in grids, all 43 classes", "-",
         ("synthetic_sets", "all", "read_right"), None),
        ("tiles read right, held-out style, naming alone (classifier, readers, captions) on the true boxes", "-",
         ("synthetic_hands_classifier_only", "read_right"), None),
        ("real photos top-1, naming alone on the photo", ">= 0.95", ("real_top1_classifier_only", "top1"), None),
        ("real photos top-1, whole pipeline on the photo pasted at hand scale", "ahead", ("real_top1_in_scene", "top1"),
         ("real_top1_in_scene", "top1")),
        ("real photos top-1, whole pipeline on the close-up photo as is", "-", ("real_top1_whole_photo", "top1"),
         ("real_top1_whole_photo", "top1")),
        ("12 MP JPEG to detections, median of 20, ms", "<= 150, ahead", ("speed_12mp", "median_ms"),
         ("speed_12mp", "median_ms")),
    ]
    lines += [
        f"Held-out style `{', '.join(bench['held_out_style'])}`, {bench['hands']} hands"
        + (f" and {bench['sets']} photos of tile sets laid out" if bench.get("sets") else "") + "; "
        f"{bench['real_photos_held_out']} held-out real photos; speed on one {bench['speed_image']}.",
        "",
        "| figure | target | mjscore | mahjong-detector | met |",
        "| --- | --- | --- | --- | --- |",
    ]
    missed = []
    for name, target, mk, bk in rows:
        ours = _figure(m, *mk)
        theirs = _figure(b, *bk) if bk else None
        met = _met(target, ours, theirs, lower="ms" in name)
        if met == "no":
            missed.append(name)
        lines.append(f"| {name} | {target} | {_fmt(ours)} | {_fmt(theirs)} | {met} |")
    mistakes = m.get("synthetic_hands_classifier_only", {}).get("mistakes", [])
    lines += ["", "Missed: " + ("; ".join(missed) if missed else "none") + "."]
    ours, theirs = _figure(m, "speed_12mp", "median_ms"), _figure(b, "speed_12mp", "median_ms")
    if ours and theirs:
        lines += ["", f"The 12 MP photo's time over the baseline's, in the same run: {ours / theirs:.2f} (the "
                  "machine's speed drifts by a fifth from run to run, the ratio less)."]
    if mistakes:
        lines += ["", "The naming's commonest mistakes on the held-out style (true boxes): "
                  + ", ".join(f"{a} read {b} ({k})" for a, b, k in mistakes) + "."]
    lines += ["", "Raw output:", "```json",
              json.dumps(bench, indent=1), "```"]
    return lines


def _fmt(v: float | None) -> str:
    return "-" if v is None else (f"{v:.1f}" if v > 1 else f"{v:.3f}")


def _met(target: str, ours: float | None, theirs: float | None, lower: bool) -> str:
    if ours is None or target == "-":
        return "-"
    if target == "ahead":
        if theirs is None:
            return "-"
        return "yes" if (ours < theirs if lower else ours > theirs) else "no"
    op, bound = target.split(",")[0].split()
    ok = ours <= float(bound) if op == "<=" else ours >= float(bound)
    if theirs is not None:
        ok = ok and (ours < theirs if lower else ours > theirs)
    return "yes" if ok else "no"


def write_card(models: Path, runs: Path, finetune: list[str] | tuple[str, ...] = (),
               classifiers: list[str] | tuple[str, ...] = ("classifier",), bench_file: Path | None = None,
               readers: list[str] | tuple[str, ...] = (), set_finder: str | None = None,
               soft: str | None = None, shaken: str | None = None, corners: str | None = None,
               row_finder: list[str] | tuple[str, ...] = (), row_corners: str | None = None,
               refiner: str | None = None, allow_missing: bool = False) -> Path:
    """Write the card ``models/README.md`` from the runs' records under ``runs`` (or kept in ``models/runs``) and
    ``bench_file`` (default: ``paths.bench_file()``), keeping its hand-written part (``kept_part``). A run named
    whose records are nowhere (``unrecorded``; the base finder's, ``finder``, among them) raises ``MissingRecords``
    rather than lose what the card says of it, unless ``allow_missing``."""
    named = ["finder", *finetune, *row_finder, *classifiers, *readers,
             *filter(None, (set_finder, soft, shaken, corners, row_corners, refiner))]
    missing = unrecorded(runs, named)
    if missing and not allow_missing:
        raise MissingRecords(missing, runs)
    bench_file = paths.bench_file() if bench_file is None else bench_file
    bench = json.loads(bench_file.read_text()) if bench_file.exists() else {}
    styles = _trained_styles(runs, classifiers)
    crop = ((_summary(runs, classifiers[-1]) if classifiers else None) or {}).get("crop", 64)
    drawn = [s for s in styles if s.startswith("dr_")]
    unicode = [s for s in styles if s.startswith("uc_")]
    art = [s for s in styles if s not in drawn + unicode]
    lines = [
        "# mjscore tile models",
        "",
        "Written by `python -m training card` from the training runs; figures are what the runs measured.",
        "",
        "| file | what | size |",
        "| --- | --- | --- |",
    ]
    for f, what in (("tile_finder.pt", "one-class YOLO11 finder (`models/finder.yaml`, width 0.1875): a box per "
                                       "tile, face up or down; its PyTorch weights, to train on from"),
                    ("tile_finder.onnx", "the same finder exported to ONNX (float), which detection runs in ONNX "
                                         "Runtime (`vision/finder.py`); stored compact, its weights float16 rows "
                                         "times float32 scales that give the export's float32 weights bit for bit "
                                         "(`training/compact.py`), as is the set finder"),
                    ("set_finder.onnx", "the finder fine-tuned with photos of tile sets laid out in grids too "
                                        "(`finder_ft5`, ONNX): it looks again at a photo in which the tile finder "
                                        "finds 32 tiles or more (`DetectorConfig.set_tiles`)"),
                    ("row_finder.onnx", "the finder fine-tuned with rows of tiles standing too (`finder_ft7`, ONNX, "
                                        "its weights stored as int8 rows times float32 scales: "
                                        "`training/compact.py`): it looks again at a hand named unsurely of whose "
                                        f"tiles the face network finds {DetectorConfig().rows_standing:.0%} or more "
                                        "standing, and its boxes are taken (`DetectorConfig.rows_standing`); and "
                                        "where the tile finder, unsure, boxed the tiles' parts "
                                        "(`DetectorConfig.rows_parts`) or is the less sure of the two, some tiles "
                                        "standing (`DetectorConfig.rows_surer`), or found fewer than a hand's "
                                        "tiles, standing (`DetectorConfig.rows_few`); not where the face network "
                                        "finds the tiles lying and the tile finder doubted them only a little "
                                        "(`DetectorConfig.rows_lying_doubt`)"),
                    ("tile_classifier.onnx", f"CNN on {crop}x{crop} crops (`training/net.py`): 43 names, "
                                             "up direction, and the features both read (its look); this network and "
                                             "the readers' are stored as int8 (`training/ship.py`)"),
                    ("soft_classifier.onnx", "the same network trained on from it on crops out of focus: it names "
                                             "the photos out of focus (`DetectorConfig.soft_below`)"),
                    ("shaken_classifier.onnx", "the same network trained on from it on shaken crops: it names the "
                                               "photos shaken (`DetectorConfig.shaken_below`)"),
                    ("face_corners.onnx", "a small CNN on 64x64 crops (`training/net.py`'s `CornerNet`): the four "
                                          "corners of the tile's face in its box, whether it lies across and whether "
                                          "the tile stands, by which a photo of tiles standing is named from their "
                                          "faces cut flat (`vision/faces.py`); beside it, where shipped so, a second "
                                          "such network trained on rows standing, whose corners are those taken in "
                                          "a photo of tiles standing; int8"),
                    ("face_refiner.onnx", "the face network's trunk on each face found, cut flat into a 64x64 square "
                                          "with a margin around it (`training/net.py`'s `RefineNet`): its corners "
                                          "found again at the face's scale; its weights int8, run in float"),
                    *((f"{family}_reader.onnx", f"the same network on upright crops of likely {tiles}: {names} + "
                       "other, and up or upside down")
                      for family, (_, tiles, names, _) in FAMILY_TEXT.items()
                      if (models / f"{family}_reader.onnx").exists()),
                    ("caption_reader.onnx", "a text-line recogniser (PaddleOCR's PP-OCRv4 mobile, Apache-2.0, not "
                                            "trained here: `training/caption.py`) that reads the flowers' English "
                                            "captions and their Chinese characters (梅蘭菊竹, 春夏秋冬); its "
                                            "steps folded, its convolutions but the first 12 int8, its other "
                                            "weights stored as float16, its largest as int8")):
        p = models / f
        lines.append(f"| `{f}` | {what} | {p.stat().st_size / 1e6:.1f} MB |" if p.exists() else f"| `{f}` | missing |")
    lines += [
        "",
        "## Data",
        "- Synthetic hands from `training/synth.py`, 1-2 MP; the shipped classifier's tile styles (as its datasets "
        "record them) " + ", ".join(art) + f" (from `training/fetch_art.py`); `{', '.join(HELD_OUT_STYLES)}` is held "
        "out for evaluation.",
        *([f"- And {len(drawn)} styles drawn here (`training/drawn_art.py`): `{drawn[0]}` to `{drawn[-1]}` from "
           "Debian's CJK fonts (numeral, 萬 and honour fonts, variants 五/伍, 萬/万, 發/发, inks, corner indices, "
           "coins, sticks, birds, white-dragon frames, flowers and their captions, all drawn by a seeded throw), and "
           + ", ".join(f"`{u}`" for u in unicode) + " from the Unicode mahjong tiles of their fonts."]
          if drawn else []),
        "- Real photos: `shared/real/camerash` (628 single-tile photos); about 35% (fixed by a hash of the file name,"
        " `real_holdout` in `training/real.py`) are never trained on; the rest train the classifier and, as faces"
        " of drawn tiles (`--art camerash:`) and laid flat (`--art flat:`), the finder's fine-tuning.",
        "",
        *_finder(runs, finetune, set_finder, row_finder),
        "",
        *_classifier(runs, classifiers),
        "",
        *([*_classifier(runs, [soft], "## Soft classifier (PyTorch, CPU; ONNX Runtime at detection)", SOFT_DETECTION),
           ""] if soft else []),
        *([*_classifier(runs, [shaken], "## Shaken classifier (PyTorch, CPU; ONNX Runtime at detection)",
                        SHAKEN_DETECTION), ""] if shaken else []),
        *(_corners(runs, corners, row_corners) if corners else []),
        *(_refiner(runs, refiner) if refiner else []),
        *_readers(runs, readers),
        *CAPTION_TEXT,
        *_evaluation(bench),
        "",
    ]
    card = models / "README.md"
    card.write_text("\n".join(lines) + kept_part(card))
    return card


def kept_part(card: Path) -> str:
    """The part of the card written by hand, from its ``## Notes`` heading to its end (the notes and the reproduce
    commands), as the card at ``card`` holds it now; or an empty notes and reproduce part where there is none.

    >>> kept_part(Path("no card here"))
    '## Notes\\n\\n## Reproduce\\n'
    """
    text = card.read_text(encoding="utf-8") if card.exists() else ""
    start = text.find(f"\n{KEPT}\n")
    return text[start + 1:] if start >= 0 else f"{KEPT}\n\n## Reproduce\n"
