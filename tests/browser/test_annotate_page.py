"""The annotation page in a real browser (Debian's Chromium, driven by Playwright) against the real service:
open a dataset, load two photos, correct a label and a sideways flag by keyboard, undo and redo, save, reload,
export, rename the dataset, delete another; the zip passes ultralytics' dataset check. The page is served under a
strict Content-Security-Policy."""

from __future__ import annotations

import json
import os
import re
import urllib.request
import zipfile
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageDraw

from tests.api.support import FakeStandingDetector
from tests.browser.support import CHROMIUM, browser, open_page, service

TOKEN = "browser-test-token-0123456789"
# a 4xx answer of the API is logged by Chromium as a console error; the page shows it (e.g. a hand that is not winning)
ANSWERED = re.compile(r"Failed to load resource: the server responded with a status of 4\d\d")
ROW = ["2m", "3m", "4m", "4p", "5p", "6p", "3s", "4s", "5s", "6s", "7s", "9s", "9s", "8s"]  # the fake's tiles

try:
    import playwright.sync_api  # noqa: F401
except ImportError:  # pragma: no cover - playwright is in the dev extra
    HAVE_PLAYWRIGHT = False
else:
    HAVE_PLAYWRIGHT = True

if not (CHROMIUM.exists() and HAVE_PLAYWRIGHT):
    why = f"{CHROMIUM} is missing (apt-get install chromium)" if HAVE_PLAYWRIGHT else "playwright is not installed"
    if os.environ.get("CI"):
        pytest.fail(f"the browser test cannot run in CI: {why}", pytrace=False)
    pytest.skip(why, allow_module_level=True)


def table_photo(path: Path, shade: int) -> Path:
    """A photo of a row of tiles where the fake detector finds them (14 boxes, the last set apart)."""
    img = Image.new("RGB", (640, 160), (20, 90 + shade, 50))
    draw = ImageDraw.Draw(img)
    for i, tile in enumerate(ROW):
        x = 10 + 40 * i + (40 if i == 13 else 0)
        draw.rounded_rectangle((x, 20, x + 36, 70), 4, fill=(245, 240, 225), outline=(120, 120, 110))
        draw.text((x + 8, 36), tile, fill=(30, 30, 30))
    img.save(path, "JPEG", quality=90)
    return path


def api_get(url: str, path: str) -> Any:
    req = urllib.request.Request(url + path, headers={"Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read())


def test_label_two_photos_by_keyboard_save_reload_and_export(tmp_path: Path):
    from ultralytics.data.dataset import YOLODataset
    from ultralytics.data.utils import check_det_dataset

    photos = [table_photo(tmp_path / "hand-a.jpg", 0), table_photo(tmp_path / "hand-b.jpg", 40)]
    stands = [FakeStandingDetector().stands(i) for i in range(len(ROW))]
    problems: list[str] = []
    with service(tmp_path / "data", TOKEN, detector="tests.api.support:FakeStandingDetector") as url, \
            browser(tmp_path / "profile") as context:
        page = context.new_page()
        page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
        page.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" and not
                ANSWERED.match(msg.text) else None)
        # sign in once, make a dataset, add two photos (the detector labels them first)
        open_page(page, url, TOKEN, "tester", "hands")
        page.set_input_files("#files", [str(p) for p in photos])
        page.wait_for_selector("#status:has-text('2 photo(s) added')")
        page.wait_for_selector("#photoName:has-text('hand-a.jpg')")
        assert page.locator("#photos li").count() == 2
        page.wait_for_selector("#reading:has-text('boxes read:')")

        # correct a label and a sideways flag by keyboard; undo and redo
        page.locator("#stage").focus()
        page.keyboard.press("Tab")  # the first box
        # renamed, a box keeps what the detector said of its tile (it stands), and the layout is asked with it
        with page.expect_request(lambda r: r.url.endswith("/v1/layout") and '"1m"' in (r.post_data or "")) as asked:
            page.keyboard.type("1m")
        assert page.input_value("#tile") == "1m"
        assert [d.get("stands") for d in asked.value.post_data_json["detections"]] == stands
        page.keyboard.press("Tab")  # the second box
        page.keyboard.press("r")
        assert page.is_checked("#sideways")
        page.keyboard.press("Control+z")
        assert not page.is_checked("#sideways")
        page.keyboard.press("Control+Shift+z")
        assert page.is_checked("#sideways")
        page.keyboard.press("Shift+Tab")
        assert page.input_value("#tile") == "1m"
        page.keyboard.press("+")
        page.keyboard.press("0")
        assert "Unsaved" in page.inner_text("#dirty")

        # the unsaved guard: going on asks first
        page.keyboard.press("]")
        page.wait_for_selector("#unsaved[open]")
        page.click("#unsavedCancel")
        assert page.inner_text("#photoName") == "hand-a.jpg"
        page.keyboard.press("Control+s")
        page.wait_for_selector("#status:has-text('saved hand-a.jpg, version 2')")
        assert "Saved (labelled)" in page.inner_text("#dirty")

        # the second photo: a change, then leave it (discard), come back, mark it reviewed and save
        page.keyboard.press("]")
        page.wait_for_selector("#photoName:has-text('hand-b.jpg')")
        page.keyboard.press("Tab")
        page.keyboard.press("Delete")
        page.keyboard.press("[")
        page.wait_for_selector("#unsaved[open]")
        page.click("#unsavedDiscard")
        page.wait_for_selector("#photoName:has-text('hand-a.jpg')")
        page.keyboard.press("PageDown")
        page.wait_for_selector("#photoName:has-text('hand-b.jpg')")
        page.wait_for_selector("#reading:has-text('boxes read:')")
        page.keyboard.press("v")
        page.keyboard.press("Control+s")
        page.wait_for_selector("#status:has-text('saved hand-b.jpg, version 2')")

        # reload: the first photo comes back as saved
        page.keyboard.press("[")
        page.wait_for_selector("#photoName:has-text('hand-a.jpg')")
        page.reload()
        page.wait_for_selector("#photoName:has-text('hand-a.jpg')")
        assert not page.locator("#login[open]").count()  # the token is asked once per tab
        page.locator("#stage").focus()
        page.keyboard.press("Tab")
        assert page.input_value("#tile") == "1m"
        page.keyboard.press("Tab")
        assert page.is_checked("#sideways")
        assert "2 labelled" not in page.inner_text("#progress")  # one labelled, one reviewed
        assert "1 labelled, 1 reviewed" in page.inner_text("#progress")
        page.click("#tilesBox summary")  # the names no checked photo shows yet: not the row's, nor the 1m typed
        assert page.inner_text("#unshown").startswith("In no checked photo yet: 5m 6m 7m 8m 9m 1p 2p 3p 7p")

        # export
        with page.expect_download() as download:
            page.click("#exportZip")
        zip_path = tmp_path / "hands.zip"
        download.value.save_as(zip_path)
        stored = api_get(url, "/v1/datasets/hands/photos/hand-a.jpg")

        # rename the dataset: the photo stays open; delete a throwaway one, its name typed to confirm
        page.click("#renameOpen")
        page.fill("#renameTo", "hands-renamed")
        page.keyboard.press("Enter")
        page.wait_for_selector("#status:has-text('renamed hands to hands-renamed')")
        assert page.input_value("#dataset") == "hands-renamed" and page.inner_text("#photoName") == "hand-a.jpg"
        assert "d=hands-renamed" in page.url and "p=hand-a.jpg" in page.url
        page.fill("#newName", "scratch")
        page.click("#create")
        page.wait_for_selector("#status:has-text('dataset scratch created')")
        page.click("#deleteOpen")
        page.keyboard.type("scratc")  # the field has the focus; the button waits for the whole name
        assert page.is_disabled("#deleteDo")
        page.keyboard.type("h")
        page.keyboard.press("Enter")
        page.wait_for_selector("#status:has-text('dataset scratch deleted')")
        assert page.locator("#dataset option").all_inner_texts() == ["(choose)", "hands-renamed (2)"]
        page.wait_for_selector("#photoName:has-text('hand-a.jpg')")
        page.select_option("#dataset", "")  # (choose): no dataset open, none to add photos to
        page.wait_for_selector("#progress:has-text('No dataset open.')")
        page.set_input_files("#files", [str(photos[1])])
        page.wait_for_selector("#status:has-text('open or create a dataset first')")
        assert "d=" not in page.url
        listed = [d["name"] for d in api_get(url, "/v1/datasets")["datasets"]]
    assert problems == []
    assert listed == ["hands-renamed"]
    assert [p.name.rsplit("-", 1)[0] for p in (tmp_path / "data" / ".deleted").iterdir()] == ["scratch"]
    assert [b["tile"] for b in stored["boxes"]][:2] == ["1m", "3m"] and stored["boxes"][1]["sideways"] is True
    assert [b["stands"] for b in stored["boxes"]] == stands  # saved as the detector said
    assert stored["saved_by"] == "tester" and stored["status"] == "labelled"

    with zipfile.ZipFile(zip_path) as zf:
        zf.extractall(tmp_path / "unzipped")
    data = check_det_dataset(str(tmp_path / "unzipped" / "hands" / "data.yaml"), autodownload=False)
    first = {}
    for part in ("train", "val"):
        for lab in YOLODataset(img_path=data[part], data=data, task="detect", imgsz=320, augment=False).get_labels():
            first[Path(lab["im_file"]).name] = [data["names"][int(c)] for c in lab["cls"].ravel()]
    assert sorted(first) == ["hand-a.jpg", "hand-b.jpg"]
    assert first["hand-a.jpg"] == ["1m", *ROW[1:]] and first["hand-b.jpg"] == ROW
    manifest = json.loads((tmp_path / "unzipped" / "hands" / "manifest.json").read_text())
    split = {p["photo"]: p["splits"][0] for p in manifest["photos"]}
    assert sorted(split.values()) == ["train", "val"]  # two hands: one to train on, one to validate on
    meta = json.loads((tmp_path / "unzipped" / "hands" / "meta" / split["hand-a.jpg"] / "hand-a.json").read_text())
    assert meta["boxes"][1]["sideways"] is True and meta["win"] == 13


def test_the_boxes_a_problem_is_about_are_framed(tmp_path: Path):
    """Boxes that read no hand: the page says why, and frames the boxes the problem is about in the annotated
    picture's colour (a tile renamed a back amid the concealed ones), and no other."""
    problems: list[str] = []
    with service(tmp_path / "data", TOKEN) as url, browser(tmp_path / "profile") as context:
        page = context.new_page()
        page.on("pageerror", lambda exc: problems.append(f"page error: {exc}"))
        open_page(page, url, TOKEN, "tester", "hands")
        page.set_input_files("#files", [str(table_photo(tmp_path / "hand.jpg", 0))])
        page.wait_for_selector("#reading:has-text('boxes read:')")
        assert page.inner_text("#reason") == ""
        page.locator("#stage").focus()
        for _ in range(6):  # the sixth box, the 6p
            page.keyboard.press("Tab")
        page.keyboard.press("b")  # named a back
        page.wait_for_selector("#reason:has-text('a face-down tile lies among the concealed tiles')")
        assert page.inner_text("#reason").endswith("(the box framed in blue)")
        # the pixel just under each box, on its frame's bottom edge: blue under the back, not under its neighbours
        under = page.evaluate("""() => {
            const dpr = window.devicePixelRatio || 1, c = document.getElementById("canvas").getContext("2d");
            return [3, 5, 7].map((i) => {
                const [x0, , x1, y1] = toScreen(S.edit.boxes[i].box);
                return Array.from(c.getImageData(Math.round((x0 + x1) / 2 * dpr), Math.round((y1 + 6) * dpr), 1,
                                                 1).data.slice(0, 3));
            });
        }""")
        assert under[1] == [0, 190, 255] and under[0] != under[1] and under[2] != under[1], under
        page.keyboard.press("Control+z")  # named as it was: a hand again, no frame
        page.wait_for_selector("#reading:has-text('boxes read:')")
        assert page.inner_text("#reason") == ""
    assert not problems, problems
