"""The model card (``training/card.py``): its reader sections, written from the runs' own records, old and new, and
its evaluation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from training import card


def _run(runs: Path, name: str, val: dict, **more: object) -> None:
    (runs / name).mkdir(parents=True)
    summary = {"init": "/runs/classifier_v3_96/last.pt", "steps": 40, "batch": 128, "seconds_total": 600,
               "data": "/d/hands4", "train_crops": 900, "crop": 96, "lr": 1e-3,
               "history": [{"step": 40, "synth_val": val}], **more}
    (runs / name / "summary.json").write_text(json.dumps(summary))


def test_each_reader_run_gets_its_family_section(tmp_path: Path) -> None:
    # a flower reader's record as the sixth session wrote it (no family, flower keys), a character reader's as now
    _run(tmp_path, "flower_reader1", {"flowers": 30, "flowers_right": 0.9, "others": 40, "others_called_flower": 2,
                                      "up_right": 0.97})
    _run(tmp_path, "character_reader1", {"family": 70, "named_right": 0.98, "others": 80, "others_called_in": 0,
                                         "up_right": 0.96}, family="character")
    text = "\n".join(card._readers(tmp_path, ["flower_reader1", "character_reader1", "gone"]))
    assert text.index("## Flower reader") < text.index("## Character reader") < text.index("`gone`")
    assert "flowers named right 0.9000 of 30, other tiles called one of them 2 of 40" in text
    assert "character tiles named right 0.9800 of 70, other tiles called one of them 0 of 80" in text
    assert "character probability (the classifier's, 1m-9m together) is 0.2 or more" in text
    assert "`character_reader1`, shipped, from `classifier_v3_96`: 40 of 40 batches of 128, 10 min" in text


def test_the_soft_classifier_gets_its_section_and_says_what_it_trained_on(tmp_path: Path) -> None:
    val = {"synth_val": {"top1": 0.97, "orient": 0.95}, "real_holdout": {"top1": 0.94, "n": 212}, "epoch": 0}
    _run(tmp_path, "classifier_v3_96", {}, epochs=1, real_train=417, history=[val])
    _run(tmp_path, "faults1", {}, epochs=1, real_train=417, history=[val], faults=0.35, init="/c/twin.pt")
    plain = "\n".join(card._classifier(tmp_path, ["classifier_v3_96"]))
    assert "faults" not in plain and "## Classifier (" in plain and "`vision/rectify.py`" in plain
    soft = "\n".join(card._classifier(tmp_path, ["faults1"], "## Soft classifier", card.SOFT_DETECTION))
    assert soft.startswith("## Soft classifier\n- `faults1`, shipped, from `twin.pt`: 1 of 1 epochs, 10 min")
    assert "a camera's faults on 35% of the crops (out of focus, shaken, a lamp's highlight; blur 0.6 to 4 px" in soft
    _run(tmp_path, "focus1", {}, epochs=1, real_train=417, history=[val], faults=1.0, fault_kinds=[1, 0, 0],
         fault_blur=[1.5, 4])
    focus = "\n".join(card._classifier(tmp_path, ["focus1"]))
    assert "a camera's faults on 100% of the crops (out of focus; blur 1.5 to 4 px" in focus
    assert "distillation" not in soft and "`DetectorConfig.soft_below`" in soft
    _run(tmp_path, "shake2", {}, epochs=1, real_train=417, history=[val], faults=1.0, fault_kinds=[0, 1, 0],
         distil=1.0)
    shaken = "\n".join(card._classifier(tmp_path, ["shake2"], "## Shaken classifier", card.SHAKEN_DETECTION))
    assert "a camera's faults on 100% of the crops (shaken; streaks of 2 to 13 px: `classifier.camera_faults`), its " \
           "names held to its start's on the crops without them (distillation, weight 1)" in shaken
    assert "blur" not in shaken and "`DetectorConfig.shaken_below`" in shaken


def test_a_reader_run_with_hard_others_says_whose_they_were(tmp_path: Path) -> None:
    val = {"family": 70, "named_right": 0.9, "others": 80, "others_called_in": 1, "up_right": 0.97}
    _run(tmp_path, "flower_reader6", val, family="flower", hard_others=0.5, init="/runs/flower_reader3/last.pt")
    _run(tmp_path, "flower_reader1", val, family="flower")
    hard, plain = ("\n".join(card._readers(tmp_path, [name])) for name in ("flower_reader6", "flower_reader1"))
    assert "1.2 times as many other tiles, 50% of them those `flower_reader3` took most for flowers, the real" in hard
    assert "took most" not in plain


def test_a_shipped_run_s_records_are_read_where_they_were_kept(tmp_path: Path, monkeypatch) -> None:  # noqa: ANN001
    runs, kept = tmp_path / "runs", tmp_path / "kept"
    val = {"family": 70, "named_right": 0.9, "others": 80, "others_called_in": 1, "up_right": 0.97}
    _run(runs, "flower_reader6", val, family="flower")
    (runs / "finder_ft9").mkdir()
    (runs / "finder_ft9" / "results.csv").write_text(
        "epoch,time,metrics/precision(B),metrics/recall(B),metrics/mAP50(B),metrics/mAP50-95(B)\n1,600,0.9,0.8,0.85,0.5\n")
    (runs / "finder_ft9" / "args.yaml").write_text("model: models/tile_finder.pt\nlr0: 0.0004\n")
    (runs / "finder_ft9.yaml").write_text("train:\n  - /d/sets1/images/train\nval:\n  - /d/sets1/images/val\n")
    (runs / "finder_ft9" / "weights.pt").write_text("not a record")
    copied = card.keep_records(runs, "flower_reader6", kept) + card.keep_records(runs, "finder_ft9", kept)
    assert sorted(str(p.relative_to(kept)) for p in copied) == [
        "finder_ft9.yaml", "finder_ft9/args.yaml", "finder_ft9/results.csv", "flower_reader6/summary.json"]
    monkeypatch.setattr(card, "RECORDS", kept)
    gone = tmp_path / "fresh_cache"  # a new machine: the runs folder is empty
    assert "flowers named right 0.9000 of 70" in "\n".join(card._readers(gone, ["flower_reader6"]))
    assert card._train_sets(card._record(gone, "finder_ft9.yaml")) == ["/d/sets1/images/train"]
    assert card._summary(gone, "flower_reader9") is None
    finder = "\n".join(card._finder(gone, [], "finder_ft9"))
    assert "- no base finder run recorded" in finder
    assert ("- the set finder (`finder_ft9`, shipped as `set_finder.onnx`, from `models/tile_finder.pt`): 1 epochs, "
            "10 min, lr0=0.0004; data [\"/d/sets1/images/train\"]") in finder
    assert "precision 0.900, recall 0.800, mAP50 0.850, mAP50-95 0.500" in finder
    assert "row finder" not in finder
    rows = "\n".join(card._finder(gone, [], None, ["finder_ft9"]))  # the same run shipped as the row finder
    assert "- the row finder (`finder_ft9`, shipped as `row_finder.onnx`, from `models/tile_finder.pt`)" in rows
    assert "finds 40% or more standing is looked at again by the row finder" in rows
    assert "the set finder (`finder_ft9`" not in rows


def test_the_evaluation_gives_the_speed_as_a_ratio_to_the_baseline() -> None:
    bench = {"held_out_style": ["kd_traditional"], "hands": 60, "real_photos_held_out": 212,
             "speed_image": "4000x3000 JPEG (12.0 MP)", "mjscore": {"speed_12mp": {"median_ms": 129.3}},
             "mahjong-detector": {"speed_12mp": {"median_ms": 163.3}}}
    text = "\n".join(card._evaluation(bench))
    assert "| 12 MP JPEG to detections, median of 20, ms | <= 150, ahead | 129.3 | 163.3 | yes |" in text
    assert "The 12 MP photo's time over the baseline's, in the same run: 0.79 " in text
    del bench["mahjong-detector"]
    assert "over the baseline's" not in "\n".join(card._evaluation(bench))


def test_the_face_network_gets_its_section_from_its_run(tmp_path: Path) -> None:
    run = tmp_path / "corners1"
    run.mkdir()
    val = {"corner_p50": 0.0254, "corner_p90": 0.0772, "across": 0.989}
    (run / "summary.json").write_text(json.dumps({
        "steps": 4000, "batch": 128, "lr": 0.002, "crop": 64, "data": "faces/low + faces/front", "train_crops": 55212,
        "val_crops": 3089, "history": [{"step": 4000, "val": val}], "seconds_total": 270.0}))
    text = "\n".join(card._corners(tmp_path, "corners1"))
    assert text.startswith("## Face network (PyTorch, CPU; ONNX Runtime at detection)\n- `corners1`, shipped: 4000 of "
                           "4000 batches of 128, 4 min; data `faces/low + faces/front`: 55212 crops of 64 px")
    assert "corners off by 0.0254 of the crop at the median (0.0772 at the 90th percentile), across told right " \
           "0.9890" in text and "`DetectorConfig.faces_below`" in text
    assert card._corners(tmp_path, "none")[1] == "- no face network run recorded under `none`"
    assert "network for rows standing" not in text
    rows = tmp_path / "rows1"
    rows.mkdir()
    (rows / "summary.json").write_text(json.dumps({
        "steps": 8000, "batch": 128, "lr": 0.002, "crop": 64, "data": "faces2/low + cam_low", "train_crops": 56452,
        "val_crops": 2388, "history": [{"step": 8000, "val": {**val, "corner_p50": 0.0226}}], "seconds_total": 810.0}))
    text = "\n".join(card._corners(tmp_path, "corners1", "rows1"))
    assert "- `rows1`, shipped beside it as the network for rows standing: 8000 of 8000 batches of 128, 14 min; data " \
           "`faces2/low + cam_low`: 56452 crops" in text and "corners off by 0.0226" in text
    assert text.index("`corners1`, shipped") < text.index("`rows1`") < text.index("- detection:")
    assert text.rstrip().endswith("the faces are those the network for rows standing finds")
    assert "- no run of the network for rows standing recorded under `gone`" in card._corners(tmp_path, "corners1",
                                                                                              "gone")


def test_the_face_refiner_gets_its_section_from_its_run(tmp_path: Path) -> None:
    run = tmp_path / "refine1"
    run.mkdir()
    found = {"all_p50": 0.0307, "standing_p50": 0.0227, "lying_p50": 0.0516}
    val = {"all_p50": 0.0088, "all_p90": 0.043, "lying_p50": 0.0119, "lying_p90": 0.064}
    (run / "summary.json").write_text(json.dumps({
        "steps": 8000, "batch": 128, "lr": 0.002, "crop": 64, "data": "faces2/low + cam_seated",
        "faces": "models/face_corners.onnx", "train_crops": 138561, "val_crops": 7320,
        "history": [{"step": 0, "val_found": found}, {"step": 8000, "val": val, "seconds": 780.0}],
        "seconds_total": 780.0}))
    text = "\n".join(card._refiner(tmp_path, "refine1"))
    assert text.startswith("## Face refiner (PyTorch, CPU; ONNX Runtime at detection)\n- `refine1`: 8000 of 8000 "
                           "batches of 128, 13 min; data `faces2/low + cam_seated`: 138561 crops of 64 px")
    assert "corners off by 0.0088 of the square at the median (0.0430 at the 90th percentile), 0.0307 as found; " \
           "the tiles lying 0.0119 (0.0640), 0.0516 as found" in text
    assert "under 0.6 of its long one" in text and "`DetectorConfig.faces_refined`" in text
    assert card._refiner(tmp_path, "none")[1] == "- no face refiner run recorded under `none`"


def test_a_card_is_not_written_over_runs_whose_records_are_gone(tmp_path: Path) -> None:
    models = tmp_path / "models"
    models.mkdir()
    (models / "README.md").write_text("# old card\n\n## Notes\nhand-written\n")
    runs = tmp_path / "runs"  # empty: only what the repository keeps (models/runs) is found
    with pytest.raises(card.MissingRecords) as caught:
        card.write_card(models, runs, ["finder_ft5"], ["gone"], tmp_path / "no_bench.json", corners="face_corners3")
    assert caught.value.names == ["finder", "gone"]  # finder_ft5 and face_corners3 are kept in the repository
    assert "--allow-missing" in str(caught.value)
    assert (models / "README.md").read_text().startswith("# old card")  # left as it was
    written = card.write_card(models, runs, ["finder_ft5"], ["gone"], tmp_path / "no_bench.json",
                              corners="face_corners3", allow_missing=True).read_text()
    assert "- no base finder run recorded" in written and "no classifier run recorded under `gone`" in written
    assert written.endswith("## Notes\nhand-written\n")
