"use strict";
// The annotation page (docs/annotate.md): datasets kept by the service, one photo at a time, every edit undoable,
// the keyboard for all of it. Plain JS under a strict Content-Security-Policy: no inline code, no eval.

// The detector's classes in their order (vision/names.py): the contract's tile names, then back.
const NAMES = [];
for (const s of "mps") for (let n = 1; n <= 9; n++) NAMES.push(n + s);
for (let n = 1; n <= 7; n++) NAMES.push(n + "z");
for (let n = 1; n <= 8; n++) NAMES.push(n + "f");
NAMES.push("back");
const TILES = new Set(NAMES);
const GROUP = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const PHOTO_FILE = /\.(jpe?g|png|webp|heic|heif)$/i;
const HANDLE = 7;  // screen pixels around a corner that grab it
const PROBLEM = "#00beff";  // the frame round a box a problem is about (the annotated picture's colour)

const $ = (id) => document.getElementById(id);
const canvas = $("canvas");
const ctx = canvas.getContext("2d");

const S = {
  token: sessionStorage.getItem("mj.token") || "",
  who: localStorage.getItem("mj.name") || "",
  dataset: "",
  photos: [],          // the list: {photo, version, status, group, boxes, ...}
  current: -1,         // index in photos of the photo open
  rec: null,           // the open photo's record as last loaded or saved
  bitmap: null,
  edit: null,          // what is edited: {boxes, win, hand, group, status}
  savedKey: "",        // the edit state as saved (JSON), to tell unsaved changes
  undo: [], redo: [],
  sel: -1,
  view: { s: 1, ox: 0, oy: 0 },
  size: { w: 0, h: 0, dpr: 1 },
  drag: null, space: false, typed: "", lastTile: "1m", lastArrow: 0,
  reading: null, readSeq: 0, readTimer: 0, scoreSeq: 0, saving: false,
};

// --- the service ---------------------------------------------------------------------------------------------

class ApiError extends Error {
  constructor(status, code, message) { super(message); this.status = status; this.code = code; }
}

async function api(method, path, body, asBlob) {
  const headers = { Authorization: "Bearer " + S.token, "X-Annotator": encodeURIComponent(S.who) };
  let payload = body;
  if (body !== undefined && !(body instanceof FormData)) {
    headers["Content-Type"] = "application/json";
    payload = JSON.stringify(body);
  }
  let r;
  try {
    r = await fetch(path, { method, headers, body: payload });
  } catch (err) {
    throw new ApiError(0, "offline", "the service did not answer: " + err.message);
  }
  if (r.ok && asBlob) return r.blob();
  const text = await r.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (err) { data = null; }
  if (!r.ok) {
    const e = data && data.error ? data.error : { code: "http_" + r.status, message: text.slice(0, 200) || r.statusText };
    if (r.status === 401) showLogin(e.message);
    throw new ApiError(r.status, e.code, e.message);
  }
  return data;
}

const ds = () => "/v1/datasets/" + encodeURIComponent(S.dataset);
const photoUrl = (name) => ds() + "/photos/" + encodeURIComponent(name);

function setStatus(text, isError) {
  $("status").textContent = text || "";
  $("status").className = isError ? "err" : "";
}

function fail(what, err) { setStatus(what + ": " + (err.code ? err.code + ": " : "") + err.message, true); }

// --- signing in ----------------------------------------------------------------------------------------------

function showLogin(message) {
  $("loginError").textContent = message || "";
  $("token").value = S.token;
  $("name").value = S.who;
  if (!$("login").open) $("login").showModal();
  $("token").focus();
}

$("login").addEventListener("cancel", (e) => e.preventDefault());
$("loginForm").addEventListener("submit", async (e) => {
  e.preventDefault();
  S.token = $("token").value.trim();
  S.who = $("name").value.trim();
  try {
    const out = await api("GET", "/v1/datasets");
    sessionStorage.setItem("mj.token", S.token);
    localStorage.setItem("mj.name", S.who);
    $("login").close();
    await afterLogin(out.datasets);
  } catch (err) {
    $("loginError").textContent = err.message;
  }
});
$("signOut").addEventListener("click", async () => {
  if (!(await leaveOk())) return;
  sessionStorage.removeItem("mj.token");
  S.token = "";
  showLogin("signed out");
});

async function afterLogin(datasets) {
  $("whoami").textContent = S.who ? "signed in as " + S.who : "signed in";
  fillDatasets(datasets);
  const want = new URLSearchParams(location.hash.slice(1));
  const name = want.get("d") || (datasets[0] && datasets[0].name) || "";
  if (name) await openDataset(name, want.get("p"));
}

// --- datasets and the photo list ------------------------------------------------------------------------------

function fillDatasets(list) {
  const sel = $("dataset");
  sel.textContent = "";
  const none = new Option(list.length ? "(choose)" : "(none yet: create one)", "");
  sel.appendChild(none);
  for (const d of list) sel.appendChild(new Option(`${d.name} (${d.photos})`, d.name));
  sel.value = S.dataset;
}

$("dataset").addEventListener("change", async () => {
  const name = $("dataset").value;
  if (!(await leaveOk())) { $("dataset").value = S.dataset; return; }
  if (name) await openDataset(name); else closeDataset();
});

$("create").addEventListener("click", async () => {
  const name = $("newName").value.trim();
  if (!name) { setStatus("type a name for the new dataset first", true); $("newName").focus(); return; }
  if (!(await leaveOk())) return;
  try {
    await api("POST", "/v1/datasets", { name });
    $("newName").value = "";
    fillDatasets((await api("GET", "/v1/datasets")).datasets);
    await openDataset(name);
    setStatus(`dataset ${name} created: add photos`);
  } catch (err) { fail("not created", err); }
});

// --- renaming and deleting the dataset open ---------------------------------------------------------------------

function enterClicks(input, button) {
  $(input).addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !$(button).disabled) { e.preventDefault(); $(button).click(); }
  });
}
enterClicks("renameTo", "renameDo");
enterClicks("deleteConfirm", "deleteDo");
$("deleteConfirm").addEventListener("input", () => { $("deleteDo").disabled = $("deleteConfirm").value !== S.dataset; });

$("renameOpen").addEventListener("click", async () => {
  if (!S.dataset) { setStatus("open a dataset first", true); return; }
  if (S.saving) return;
  const old = S.dataset;
  $("renameTo").value = old;
  const choice = ask($("renameBox"), ["renameDo", "renameCancel"]);
  $("renameTo").focus();
  $("renameTo").select();
  const name = (await choice) === "renameDo" ? $("renameTo").value.trim() : "";
  if (!name || name === old) return;
  try {
    await api("PATCH", ds(), { name });
  } catch (err) { fail("not renamed", err); return; }
  S.dataset = name;  // the photo open stays open, its edits too
  if (S.rec) S.rec.dataset = name;
  try {
    fillDatasets((await api("GET", "/v1/datasets")).datasets);
    await refreshList();
  } catch (err) { fail(`renamed to ${name}; the list is not refreshed`, err); return; }
  renderAll();
  updateHash();
  setStatus(`renamed ${old} to ${name}`);
});

$("deleteOpen").addEventListener("click", async () => {
  if (!S.dataset) { setStatus("open a dataset first", true); return; }
  if (!(await leaveOk())) return;
  const name = S.dataset, names = [...$("dataset").options].map((o) => o.value).filter(Boolean);
  $("deleteText").textContent = `${name} and its ${S.photos.length} photo(s) leave the list. The service keeps ` +
    "them in its data folder under .deleted/, from where they can be restored (docs/annotate.md).";
  $("deleteConfirm").value = "";
  $("deleteDo").disabled = true;
  const choice = ask($("deleteBox"), ["deleteDo", "deleteCancel"]);
  $("deleteConfirm").focus();
  if ((await choice) !== "deleteDo") return;
  try {
    await api("DELETE", ds());
  } catch (err) { fail("not deleted", err); return; }
  closeDataset();
  try {
    const list = (await api("GET", "/v1/datasets")).datasets;
    fillDatasets(list);
    if (list.length) await openDataset(list[Math.min(Math.max(0, names.indexOf(name)), list.length - 1)].name);
  } catch (err) { fail(`deleted ${name}; the list is not refreshed`, err); return; }
  setStatus(`dataset ${name} deleted (the service keeps it under .deleted/)`);
});

function closeDataset() {
  S.dataset = "";
  S.photos = [];
  clearPhoto();
  renderList();
  $("progress").textContent = "No dataset open.";
  $("tiles").textContent = "";
  updateHash();
}

async function openDataset(name, photo) {
  S.dataset = name;
  $("dataset").value = name;
  clearPhoto();
  try {
    await refreshList();
  } catch (err) {
    fail("cannot open " + name, err);
    return;
  }
  let i = photo ? S.photos.findIndex((p) => p.photo === photo) : -1;
  if (i < 0) i = Math.max(0, S.photos.findIndex((p) => p.status === "todo"));
  if (S.photos.length) await openPhoto(i);
  updateHash();
}

async function refreshList() {
  const [progress, list] = await Promise.all([api("GET", ds()), api("GET", ds() + "/photos")]);
  S.photos = list.photos;
  if (S.rec) S.current = S.photos.findIndex((p) => p.photo === S.rec.photo);
  renderProgress(progress);
  renderList();
}

function renderProgress(p) {
  const option = [...$("dataset").options].find((o) => o.value === p.name);
  if (option) option.textContent = `${p.name} (${p.photos})`;
  $("progress").textContent = `${p.photos} photos: ${p.todo} to do, ${p.labelled} labelled, ${p.reviewed} reviewed;` +
    ` ${p.groups} groups, ${p.boxes} boxes`;
  const table = $("tiles");
  table.textContent = "";
  for (const [tile, n] of Object.entries(p.tiles)) {
    const tr = table.insertRow();
    tr.insertCell().textContent = tile;
    tr.insertCell().textContent = n;
  }
  // a fine-tune cannot learn the set's look of a tile no checked photo shows
  $("unshown").textContent = p.unshown.length ? `In no checked photo yet: ${p.unshown.join(" ")}` : "";
}

function renderList() {
  const ol = $("photos");
  ol.textContent = "";
  S.photos.forEach((p, i) => {
    const li = document.createElement("li");
    li.className = p.status + (i === S.current ? " current" : "");
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.photo = p.photo;
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = p.photo;
    const state = document.createElement("span");
    state.className = "state";
    state.textContent = (p.status === "todo" ? "to do" : p.status) + " · " + p.boxes;
    b.append(name, state);
    b.addEventListener("click", () => go(i));
    li.appendChild(b);
    ol.appendChild(li);
  });
}

function updateHash() {
  const q = new URLSearchParams();
  if (S.dataset) q.set("d", S.dataset);
  if (S.rec) q.set("p", S.rec.photo);
  history.replaceState(null, "", "#" + q.toString());
}

// --- opening a photo, and leaving it ----------------------------------------------------------------------------

const stateKey = (e) => JSON.stringify(e);
const dirty = () => S.rec !== null && stateKey(S.edit) !== S.savedKey;

function clearPhoto() {
  S.rec = null; S.bitmap = null; S.edit = null; S.current = -1; S.sel = -1; S.undo = []; S.redo = [];
  S.reading = null; S.savedKey = "";
  $("drop").hidden = false;
  renderAll();
}

function fromRecord(rec) {
  return {
    // a box keeps what the detector said of it (``stands``: whether the tile stands) through renaming and moving,
    // so that the layout reads the boxes as it read the photo; a box drawn anew has none
    boxes: rec.boxes.map((b) => ({ tile: b.tile, box: b.box.slice(), sideways: b.sideways,
                                   ...(b.stands == null ? {} : { stands: b.stands }) })),
    win: rec.win, hand: rec.hand, group: rec.group, status: rec.status,
  };
}

async function openPhoto(i) {
  const entry = S.photos[i];
  if (!entry) return;
  setStatus("opening " + entry.photo + " ...");
  let rec, blob;
  try {
    [rec, blob] = await Promise.all([api("GET", photoUrl(entry.photo)), api("GET", photoUrl(entry.photo) + "/image",
                                                                             undefined, true)]);
  } catch (err) { fail("cannot open " + entry.photo, err); return; }
  let bitmap = null;
  try { bitmap = await createImageBitmap(blob); } catch (err) { bitmap = null; }
  S.current = i; S.rec = rec; S.bitmap = bitmap; S.edit = fromRecord(rec);
  S.sel = -1; S.undo = []; S.redo = []; S.typed = ""; S.reading = null;
  await readLayout();
  if (S.reading && S.edit.hand === S.reading.hand) S.edit.hand = null;  // as the boxes read, not typed
  S.savedKey = stateKey(S.edit);
  $("drop").hidden = true;
  fit();
  renderAll();
  updateHash();
  setStatus(bitmap ? "" : "this browser cannot show " + rec.photo + "; the boxes are drawn on a blank page");
}

async function go(i) {
  if (i < 0 || i >= S.photos.length || i === S.current) return;
  if (!(await leaveOk())) return;
  await openPhoto(i);
}

function ask(dialog, ids) {
  return new Promise((resolve) => {
    const done = (id) => {
      for (const [b, f] of handlers) b.removeEventListener("click", f);
      dialog.removeEventListener("cancel", onCancel);
      dialog.close();
      resolve(id);
    };
    const handlers = ids.map((id) => [$(id), () => done(id)]);
    const onCancel = (e) => { e.preventDefault(); done(ids[ids.length - 1]); };
    for (const [b, f] of handlers) b.addEventListener("click", f);
    dialog.addEventListener("cancel", onCancel);
    dialog.showModal();
    $(ids[0]).focus();
  });
}

async function leaveOk() {
  if (!dirty()) return true;
  $("unsavedText").textContent = S.rec.photo + " has changes that are not saved.";
  const choice = await ask($("unsaved"), ["unsavedSave", "unsavedDiscard", "unsavedCancel"]);
  if (choice === "unsavedSave") return save();
  return choice === "unsavedDiscard";
}

window.addEventListener("beforeunload", (e) => { if (dirty()) { e.preventDefault(); e.returnValue = ""; } });

// --- editing: every change goes through commit(), so that it can be undone --------------------------------------

function commit(change) {
  if (!S.edit) return;
  const before = stateKey(S.edit);
  change(S.edit);
  if (stateKey(S.edit) === before) return;
  S.undo.push(before);
  if (S.undo.length > 500) S.undo.shift();
  S.redo = [];
  changed();
}

function changed() {
  if (S.sel >= S.edit.boxes.length) S.sel = -1;
  renderAll();
  scheduleRead();
}

function undo() {
  if (!S.undo.length) return;
  S.redo.push(stateKey(S.edit));
  S.edit = JSON.parse(S.undo.pop());
  changed();
}

function redo() {
  if (!S.redo.length) return;
  S.undo.push(stateKey(S.edit));
  S.edit = JSON.parse(S.redo.pop());
  changed();
}

function setTile(name) {
  if (S.sel < 0) return;
  S.lastTile = name;
  const i = S.sel;
  commit((e) => { e.boxes[i].tile = name; });
}

function toggleSideways() {
  const i = S.sel;
  if (i >= 0) commit((e) => { e.boxes[i].sideways = !e.boxes[i].sideways; });
}

function toggleWin() {
  const i = S.sel;
  if (i >= 0) commit((e) => { e.win = e.win === i ? null : i; });
}

function deleteBox() {
  const i = S.sel;
  if (i < 0) return;
  S.sel = -1;
  commit((e) => {
    e.boxes.splice(i, 1);
    if (e.win === i) e.win = null; else if (e.win !== null && e.win > i) e.win -= 1;
  });
}

function newBeside() {
  if (S.sel < 0) return;
  const b = S.edit.boxes[S.sel].box, w = b[2] - b[0], W = S.rec.image.width;
  const x0 = Math.min(b[2] + 2, W - w);
  const box = { tile: S.edit.boxes[S.sel].tile, box: [x0, b[1], x0 + w, b[3]], sideways: false };
  commit((e) => { e.boxes.push(box); });
  S.sel = S.edit.boxes.length - 1;
  renderAll();
}

function nudge(dx, dy, resize) {
  const i = S.sel;
  if (i < 0) return;
  const now = Date.now();
  const before = stateKey(S.edit);
  const { width: W, height: H } = S.rec.image;
  const b = S.edit.boxes[i].box;
  if (resize) {
    b[2] = clamp(b[2] + dx, b[0] + 2, W);
    b[3] = clamp(b[3] + dy, b[1] + 2, H);
  } else {
    const mx = clamp(dx, -b[0], W - b[2]), my = clamp(dy, -b[1], H - b[3]);
    b[0] += mx; b[2] += mx; b[1] += my; b[3] += my;
  }
  if (stateKey(S.edit) === before) return;
  if (now - S.lastArrow > 800) { S.undo.push(before); S.redo = []; }  // a run of key presses is one step
  S.lastArrow = now;
  changed();
}

// --- the layout's reading and the score ---------------------------------------------------------------------------

function scheduleRead() {
  clearTimeout(S.readTimer);
  S.readTimer = setTimeout(readLayout, 150);
}

async function readLayout() {
  clearTimeout(S.readTimer);
  if (!S.rec) return;
  const seq = ++S.readSeq;
  const body = { image: S.rec.image, detections: S.edit.boxes, win: S.edit.win };
  let out;
  try {
    out = await api("POST", "/v1/layout", body);
  } catch (err) {
    out = { hand: null, reason: err.message, melds: [], win: S.edit.win, layout: null };
  }
  if (seq !== S.readSeq) return;
  S.reading = out;
  renderReading();
  draw();
  scoreHand();
}

function handNow() {
  return (S.edit && S.edit.hand) || (S.reading && S.reading.hand) || null;
}

async function scoreHand() {
  const hand = handNow();
  const seq = ++S.scoreSeq;
  if (!hand) { $("score").textContent = ""; return; }
  const body = { rules: $("rules").value, hand, self_draw: $("selfDraw").checked };
  let text;
  try {
    const r = await api("POST", "/v1/score", body);
    text = `${r.rules}: total ${r.total}` + (r.meets_minimum ? "" : " (below the minimum)") + "\n" +
      r.fans.map((f) => `${f.value * f.count}  ${f.name} ${f.name_zh}` + (f.count > 1 ? ` x${f.count}` : "")).join("\n");
  } catch (err) {
    text = `not scored under ${body.rules}: ${err.message}`;
  }
  if (seq === S.scoreSeq) $("score").textContent = text;
}

// --- saving -----------------------------------------------------------------------------------------------------

async function save(overwrite) {
  if (!S.rec || S.saving) return false;
  S.saving = true;
  try {
    await readLayout();  // the melds and winning tile of the boxes as they are now
    const e = S.edit, reading = S.reading || { melds: [], win: e.win, hand: null };
    const status = e.status === "todo" ? "labelled" : e.status;
    const body = { version: S.rec.version, boxes: e.boxes, melds: reading.melds, win: reading.win,
                   hand: e.hand || reading.hand || null, group: e.group, status };
    if (e.group && !GROUP.test(e.group)) {
      setStatus("not saved: the group may hold letters, digits, '-', '_' and '.' only", true);
      return false;
    }
    const name = S.rec.photo;
    try {
      S.rec = await api("PUT", photoUrl(name), body);
    } catch (err) {
      if (err.code === "version_conflict" && !overwrite) return conflict(err);
      fail("not saved (your changes are still here)", err);
      return false;
    }
    S.edit.status = S.rec.status;
    S.savedKey = stateKey(S.edit);
    setStatus(`saved ${name}, version ${S.rec.version}`);
    refreshList().catch((err) => fail("cannot refresh the list", err));
    renderAll();
    return true;
  } finally {
    S.saving = false;
  }
}

async function conflict(err) {
  $("conflictText").textContent = err.message;
  const choice = await ask($("conflict"), ["conflictReload", "conflictOverwrite", "conflictCancel"]);
  if (choice === "conflictReload") {  // their version replaces these changes
    await openPhoto(S.current);
    return true;
  }
  if (choice === "conflictOverwrite") {
    try {
      S.rec.version = (await api("GET", photoUrl(S.rec.photo))).version;
    } catch (e) { fail("cannot read their version", e); return false; }
    S.saving = false;
    return save(true);
  }
  setStatus("not saved: " + err.message, true);
  return false;
}

async function saveNext() {
  if (await save()) await go(S.current + 1);
}

// --- uploads, import, export -------------------------------------------------------------------------------------

function isPhoto(f) { return PHOTO_FILE.test(f.name) || (f.type || "").startsWith("image/"); }

async function upload(files) {
  if (!S.dataset) { setStatus("open or create a dataset first", true); return; }
  const list = [...files].filter(isPhoto);
  if (!list.length) { setStatus("no photos there (.jpg, .png, .webp, .heic)", true); return; }
  const group = $("uploadGroup").value.trim();
  if (group && !GROUP.test(group)) { setStatus("the group may hold letters, digits, '-', '_' and '.' only", true); return; }
  let added = 0, twice = 0;
  const refused = [];
  for (let k = 0; k < list.length; k++) {
    setStatus(`uploading ${k + 1} of ${list.length}: ${list[k].name} (the detector labels it first)`);
    const form = new FormData();
    form.append("file", list[k], list[k].name);
    if (group) form.append("group", group);
    try {
      await api("POST", ds() + "/photos", form);
      added += 1;
    } catch (err) {
      if (err.code === "duplicate_photo") twice += 1; else refused.push(`${list[k].name}: ${err.message}`);
      if (err.status === 401 || err.status === 507 || err.status === 503) break;
    }
  }
  try { await refreshList(); } catch (err) { fail("cannot refresh the list", err); }
  if (!S.rec && S.photos.length) await openPhoto(0);
  setStatus(`${added} photo(s) added` + (twice ? `, ${twice} already there` : "") +
            (refused.length ? `; ${refused.length} refused:\n${refused.join("\n")}` : ""), refused.length > 0);
}

$("addPhotos").addEventListener("click", () => $("files").click());
$("addFolder").addEventListener("click", () => $("folder").click());
$("files").addEventListener("change", async (e) => { await upload(e.target.files); e.target.value = ""; });
$("folder").addEventListener("change", async (e) => { await upload(e.target.files); e.target.value = ""; });

async function droppedFiles(dt) {
  const entries = [...dt.items].map((item) => item.webkitGetAsEntry && item.webkitGetAsEntry()).filter(Boolean);
  if (!entries.length) return [...dt.files];
  const out = [];
  async function walk(entry) {
    if (entry.isFile) {
      out.push(await new Promise((ok, bad) => entry.file(ok, bad)));
    } else if (entry.isDirectory) {
      const reader = entry.createReader();
      for (;;) {
        const batch = await new Promise((ok, bad) => reader.readEntries(ok, bad));
        if (!batch.length) break;
        for (const child of batch) await walk(child);
      }
    }
  }
  for (const entry of entries) await walk(entry);
  return out;
}

$("stage").addEventListener("dragover", (e) => { e.preventDefault(); $("stage").classList.add("dragover"); });
$("stage").addEventListener("dragleave", () => $("stage").classList.remove("dragover"));
$("stage").addEventListener("drop", async (e) => {
  e.preventDefault();
  $("stage").classList.remove("dragover");
  const files = droppedFiles(e.dataTransfer);  // the entries are read before the event ends
  await upload(await files);
});

$("importZip").addEventListener("click", () => {
  if (!S.dataset && !$("newName").value.trim()) {
    setStatus("open a dataset, or type the name of a new one, to import into", true);
    return;
  }
  $("zip").click();
});
$("zip").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  e.target.value = "";
  if (!file || !(await leaveOk())) return;
  const name = S.dataset || $("newName").value.trim();
  const form = new FormData();
  form.append("file", file, file.name);
  setStatus(`importing ${file.name} into ${name} ...`);
  try {
    const r = await api("POST", "/v1/datasets/" + encodeURIComponent(name) + "/import", form);
    fillDatasets((await api("GET", "/v1/datasets")).datasets);
    await openDataset(name);
    setStatus(`imported ${r.format}: ${r.added} added, ${r.duplicates} already there` +
              (r.skipped.length ? `, ${r.skipped.length} skipped:\n` + r.skipped.map((s) => s.file + ": " + s.reason)
                .join("\n") : ""), r.skipped.length > 0);
  } catch (err) { fail("not imported", err); }
});

$("exportZip").addEventListener("click", async () => {
  if (!S.dataset) { setStatus("open a dataset first", true); return; }
  if (!(await leaveOk())) return;
  setStatus("exporting ...");
  try {
    const blob = await api("GET", ds() + "/export", undefined, true);
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = S.dataset + ".zip";
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 60000);
    setStatus(`exported ${S.dataset}.zip (labelled and reviewed photos)`);
  } catch (err) { fail("not exported", err); }
});

// --- drawing -------------------------------------------------------------------------------------------------------

function clamp(v, lo, hi) { return Math.max(lo, Math.min(hi, v)); }

function resizeCanvas() {
  const r = $("stage").getBoundingClientRect(), dpr = window.devicePixelRatio || 1;
  S.size = { w: r.width, h: r.height, dpr };
  canvas.width = Math.max(1, Math.round(r.width * dpr));
  canvas.height = Math.max(1, Math.round(r.height * dpr));
}

function fit() {
  if (!S.rec) return;
  const { width: W, height: H } = S.rec.image;
  const s = Math.min(S.size.w / W, S.size.h / H) * 0.96;
  S.view = { s, ox: (S.size.w - W * s) / 2, oy: (S.size.h - H * s) / 2 };
  draw();
}

function zoomAt(f, sx, sy) {
  const v = S.view, s = clamp(v.s * f, 0.02, 40);
  v.ox = sx - (sx - v.ox) * s / v.s;
  v.oy = sy - (sy - v.oy) * s / v.s;
  v.s = s;
  draw();
}

const toScreen = (b) => [S.view.ox + b[0] * S.view.s, S.view.oy + b[1] * S.view.s,
                         S.view.ox + b[2] * S.view.s, S.view.oy + b[3] * S.view.s];

function draw() {
  const { w, h, dpr } = S.size;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, w, h);
  if (!S.rec) return;
  const { width: W, height: H } = S.rec.image, v = S.view;
  if (S.bitmap) ctx.drawImage(S.bitmap, v.ox, v.oy, W * v.s, H * v.s);
  else { ctx.fillStyle = "#555"; ctx.fillRect(v.ox, v.oy, W * v.s, H * v.s); }
  const boxes = S.edit.boxes;
  if (S.reading) {  // the melds the layout reads: one frame around each
    ctx.lineWidth = 2;
    ctx.strokeStyle = "#ff9d00";
    ctx.setLineDash([]);
    for (const m of S.reading.melds) {
      if (m.boxes.some((i) => i >= boxes.length)) continue;
      const r = m.boxes.map((i) => toScreen(boxes[i].box));
      ctx.strokeRect(Math.min(...r.map((q) => q[0])) - 4, Math.min(...r.map((q) => q[1])) - 4,
                     Math.max(...r.map((q) => q[2])) - Math.min(...r.map((q) => q[0])) + 8,
                     Math.max(...r.map((q) => q[3])) - Math.min(...r.map((q) => q[1])) + 8);
    }
  }
  ctx.lineWidth = 3;  // the boxes the problem is about (no hand read): a frame of their own round each
  ctx.strokeStyle = PROBLEM;
  for (const i of problemBoxes()) {
    const [x0, y0, x1, y1] = toScreen(boxes[i].box);
    ctx.strokeRect(x0 - 6, y0 - 6, x1 - x0 + 12, y1 - y0 + 12);
  }
  const win = S.reading && S.reading.win !== null && S.reading.win !== undefined ? S.reading.win : S.edit.win;
  ctx.font = "bold 13px system-ui, sans-serif";
  boxes.forEach((d, i) => {
    const [x0, y0, x1, y1] = toScreen(d.box);
    const selected = i === S.sel;
    ctx.lineWidth = selected || i === win ? 3 : 2;
    ctx.strokeStyle = selected ? "#ffd400" : i === win ? "#ff3b3b" : d.tile === "back" ? "#b48cff" : "#35d07f";
    ctx.setLineDash(d.sideways ? [6, 3] : []);
    ctx.strokeRect(x0, y0, x1 - x0, y1 - y0);
    ctx.setLineDash([]);
    const text = d.tile + (d.sideways ? " ↻" : "") + (i === win ? " +" : "");
    const tw = ctx.measureText(text).width + 6, ty = y0 > 18 ? y0 - 17 : y1 + 1;
    ctx.fillStyle = "rgba(0,0,0,.75)";
    ctx.fillRect(x0, ty, tw, 16);
    ctx.fillStyle = ctx.strokeStyle;
    ctx.fillText(text, x0 + 3, ty + 12);
    if (selected) for (const [hx, hy] of [[x0, y0], [x1, y0], [x0, y1], [x1, y1]]) {
      ctx.fillRect(hx - HANDLE / 2, hy - HANDLE / 2, HANDLE, HANDLE);
    }
  });
}

// --- the panel ---------------------------------------------------------------------------------------------------

function renderAll() {
  draw();
  renderPanel();
  renderReading();
  renderListMarks();
}

function renderListMarks() {
  [...$("photos").children].forEach((li, i) => li.classList.toggle("current", i === S.current));
}

function setValue(el, value) { if (document.activeElement !== el) el.value = value; }

function renderPanel() {
  const rec = S.rec, e = S.edit;
  const open = rec !== null;
  for (const id of ["prev", "next", "save", "saveNext", "zoomIn", "zoomOut", "zoomFit", "prelabel", "group",
                    "reviewed", "hand"]) $(id).disabled = !open;
  $("undo").disabled = !S.undo.length;
  $("redo").disabled = !S.redo.length;
  if (!open) {
    $("photoName").textContent = "No photo";
    $("photoInfo").textContent = S.dataset ? "Add photos, or pick one on the left." : "Open or create a dataset.";
    $("dirty").textContent = "";
    $("boxNone").hidden = false;
    $("boxEdit").hidden = true;
    return;
  }
  $("prev").disabled = S.current <= 0;
  $("next").disabled = S.current >= S.photos.length - 1;
  $("photoName").textContent = rec.photo;
  $("photoInfo").textContent = `${S.current + 1} of ${S.photos.length} · ${rec.image.width}×${rec.image.height} · ` +
    `version ${rec.version}, saved by ${rec.saved_by} ${rec.saved_at.replace("T", " ").replace("Z", " UTC")}`;
  setValue($("group"), e.group);
  $("reviewed").checked = e.status === "reviewed";
  const changes = dirty();
  $("dirty").textContent = changes ? "Unsaved changes." : `Saved (${e.status === "todo" ? "to do" : e.status}).`;
  $("dirty").className = changes ? "warn" : "muted";
  const box = S.sel >= 0 ? e.boxes[S.sel] : null;
  $("boxNone").hidden = box !== null;
  $("boxEdit").hidden = box === null;
  if (box) {
    setValue($("tile"), box.tile);
    $("sideways").checked = box.sideways;
    $("isWin").checked = e.win === S.sel;
    const [x0, y0, x1, y1] = box.box.map(Math.round);
    $("boxInfo").textContent = `box ${S.sel + 1} of ${e.boxes.length} · ${x1 - x0}×${y1 - y0} at ${x0},${y0}` +
      (S.typed ? ` · typed ${S.typed}_` : "");
  }
}

function problemBoxes() {
  // the boxes the layout's problem is about, where it reads no hand: a group that is no meld, a face-down tile among
  // the concealed ones, each copy of a tile read five times
  const r = S.reading, p = r && !r.hand && r.layout && r.layout.problem;
  return p && Array.isArray(p.detections) ? p.detections.filter((i) => i < S.edit.boxes.length) : [];
}

function renderReading() {
  const r = S.reading;
  if (!S.rec || !r) { $("reading").textContent = "–"; $("reason").textContent = ""; $("score").textContent = ""; return; }
  const typed = S.edit.hand;
  $("reading").textContent = r.hand ? "boxes read: " + r.hand :
    "boxes read no hand" + (r.layout && r.layout.reading ? ": " + r.layout.reading : "");
  const framed = problemBoxes().length;
  $("reason").textContent = r.hand ? "" : "why: " + (r.reason || "unknown") +
    (framed ? ` (the box${framed > 1 ? "es" : ""} framed in blue)` : "");
  $("hand").placeholder = r.hand || "as the boxes read";
  setValue($("hand"), typed || "");
  if (typed && typed !== r.hand) $("reason").textContent = "the hand below was written by hand and is saved as written";
}

// --- panel controls -------------------------------------------------------------------------------------------

$("prev").addEventListener("click", () => go(S.current - 1));
$("next").addEventListener("click", () => go(S.current + 1));
$("save").addEventListener("click", () => save());
$("saveNext").addEventListener("click", saveNext);
$("undo").addEventListener("click", undo);
$("redo").addEventListener("click", redo);
$("zoomIn").addEventListener("click", () => zoomAt(1.25, S.size.w / 2, S.size.h / 2));
$("zoomOut").addEventListener("click", () => zoomAt(0.8, S.size.w / 2, S.size.h / 2));
$("zoomFit").addEventListener("click", fit);
$("delete").addEventListener("click", deleteBox);
$("sideways").addEventListener("change", toggleSideways);
$("isWin").addEventListener("change", toggleWin);
$("tile").addEventListener("change", () => {
  const name = $("tile").value.trim().toLowerCase();
  if (TILES.has(name)) setTile(name);
  else { setStatus(`${name} is not a tile: 1m..9m, 1p..9p, 1s..9s, 1z..7z, 1f..8f or back`, true); renderPanel(); }
});
$("group").addEventListener("change", () => {
  const group = $("group").value.trim();
  if (group && !GROUP.test(group)) setStatus("the group may hold letters, digits, '-', '_' and '.' only", true);
  commit((e) => { e.group = group; });
});
$("hand").addEventListener("change", () => {
  const hand = $("hand").value.trim() || null;
  commit((e) => { e.hand = hand && S.reading && hand === S.reading.hand ? null : hand; });
  scoreHand();
});
$("reviewed").addEventListener("change", () => {
  const on = $("reviewed").checked;
  commit((e) => { e.status = on ? "reviewed" : e.status === "reviewed" ? "labelled" : e.status; });
});
$("rules").addEventListener("change", scoreHand);
$("selfDraw").addEventListener("change", scoreHand);
$("prelabel").addEventListener("click", async () => {
  if (!S.rec) return;
  setStatus("the detector is reading the photo ...");
  try {
    const out = await api("POST", photoUrl(S.rec.photo) + "/prelabel");
    S.sel = -1;
    commit((e) => { e.boxes = out.boxes; e.win = out.win; });
    setStatus(out.note + " (Undo brings the boxes before back)");
  } catch (err) { fail("not detected", err); }
});
$("helpOpen").addEventListener("click", () => $("help").showModal());
$("helpClose").addEventListener("click", () => $("help").close());

// --- the mouse on the photo --------------------------------------------------------------------------------------

function local(e) {
  const r = canvas.getBoundingClientRect();
  return [e.clientX - r.left, e.clientY - r.top];
}
const toImage = (sx, sy) => [(sx - S.view.ox) / S.view.s, (sy - S.view.oy) / S.view.s];

function boxAt(x, y) {
  let best = -1, area = Infinity;  // the smallest box under the pointer
  S.edit.boxes.forEach((d, i) => {
    const b = d.box, a = (b[2] - b[0]) * (b[3] - b[1]);
    if (x >= b[0] && x <= b[2] && y >= b[1] && y <= b[3] && a < area) { best = i; area = a; }
  });
  return best;
}

canvas.addEventListener("mousedown", (e) => {
  if (!S.rec) return;
  $("stage").focus({ preventScroll: true });
  const [sx, sy] = local(e);
  if (e.button === 1 || S.space) {
    S.drag = { kind: "pan", sx, sy, ox: S.view.ox, oy: S.view.oy };
    e.preventDefault();
    return;
  }
  if (e.button !== 0) return;
  const [x, y] = toImage(sx, sy), tol = HANDLE / S.view.s, before = stateKey(S.edit);
  S.typed = "";
  if (S.sel >= 0) {
    const b = S.edit.boxes[S.sel].box;
    for (const [cx, cy] of [[0, 1], [2, 1], [0, 3], [2, 3]]) {
      if (Math.abs(b[cx] - x) <= tol && Math.abs(b[cy] - y) <= tol) {
        S.drag = { kind: "resize", cx, cy, before };
        return;
      }
    }
  }
  const hit = boxAt(x, y);
  if (hit >= 0) {
    S.sel = hit;
    S.drag = { kind: "move", x, y, box: S.edit.boxes[hit].box.slice(), before };
    renderAll();
    return;
  }
  S.edit.boxes.push({ tile: S.lastTile, box: [x, y, x, y], sideways: false });
  S.sel = S.edit.boxes.length - 1;
  S.drag = { kind: "new", x, y, before };
  renderAll();
});

window.addEventListener("mousemove", (e) => {
  const g = S.drag;
  if (!g) return;
  const [sx, sy] = local(e);
  if (g.kind === "pan") {
    S.view.ox = g.ox + sx - g.sx;
    S.view.oy = g.oy + sy - g.sy;
    draw();
    return;
  }
  const [x, y] = toImage(sx, sy), { width: W, height: H } = S.rec.image, d = S.edit.boxes[S.sel];
  if (g.kind === "move") {
    const w = g.box[2] - g.box[0], h = g.box[3] - g.box[1];
    const nx = clamp(g.box[0] + x - g.x, 0, W - w), ny = clamp(g.box[1] + y - g.y, 0, H - h);
    d.box = [nx, ny, nx + w, ny + h];
  } else if (g.kind === "resize") {
    d.box[g.cx] = clamp(x, 0, W);
    d.box[g.cy] = clamp(y, 0, H);
  } else {
    const cx = clamp(x, 0, W), cy = clamp(y, 0, H);
    d.box = [Math.min(g.x, cx), Math.min(g.y, cy), Math.max(g.x, cx), Math.max(g.y, cy)];
  }
  draw();
});

window.addEventListener("mouseup", () => {
  const g = S.drag;
  if (!g) return;
  S.drag = null;
  if (g.kind === "pan") return;
  const d = S.edit.boxes[S.sel];
  if (d) {
    const b = d.box;
    d.box = [Math.min(b[0], b[2]), Math.min(b[1], b[3]), Math.max(b[0], b[2]), Math.max(b[1], b[3])]
      .map((v) => Math.round(v * 10) / 10);
    const small = (d.box[2] - d.box[0]) * S.view.s < 4 || (d.box[3] - d.box[1]) * S.view.s < 4;
    if (g.kind === "new" && small) {  // a click on the photo, not a box: deselect
      S.edit.boxes.pop();
      S.sel = -1;
    }
  }
  if (stateKey(S.edit) !== g.before) {
    S.undo.push(g.before);
    S.redo = [];
    changed();
  } else {
    renderAll();
  }
});

canvas.addEventListener("wheel", (e) => {
  if (!S.rec) return;
  e.preventDefault();
  const [sx, sy] = local(e);
  zoomAt(e.deltaY < 0 ? 1.15 : 1 / 1.15, sx, sy);
}, { passive: false });

canvas.addEventListener("auxclick", (e) => e.preventDefault());

// --- the keyboard ------------------------------------------------------------------------------------------------

function typingIn(el) {
  return (el.tagName === "INPUT" && !["checkbox", "button", "file"].includes(el.type)) || el.tagName === "SELECT" ||
    el.tagName === "TEXTAREA";
}

document.addEventListener("keydown", (e) => {
  if (document.querySelector("dialog[open]")) return;
  const mod = e.ctrlKey || e.metaKey, key = e.key;
  if (mod && key.toLowerCase() === "s") { e.preventDefault(); document.activeElement.blur(); save(); return; }
  if (mod && key === "Enter") { e.preventDefault(); document.activeElement.blur(); saveNext(); return; }
  if (typingIn(e.target)) {
    if (key === "Escape") e.target.blur();
    return;
  }
  if (mod && key.toLowerCase() === "z") { e.preventDefault(); if (e.shiftKey) redo(); else undo(); return; }
  if (mod && key.toLowerCase() === "y") { e.preventDefault(); redo(); return; }
  if (mod || e.altKey && !key.startsWith("Arrow")) return;
  if (key === " ") { S.space = true; canvas.classList.add("panning"); e.preventDefault(); return; }
  if (!S.rec) { if (key === "?") $("help").showModal(); return; }
  const handled = () => { e.preventDefault(); renderPanel(); };
  if (key === "?") { $("help").showModal(); return handled(); }
  if (key === "]" || key === "PageDown") { go(S.current + 1); return handled(); }
  if (key === "[" || key === "PageUp") { go(S.current - 1); return handled(); }
  if (key === "+" || key === "=") { zoomAt(1.25, S.size.w / 2, S.size.h / 2); return handled(); }
  if (key === "-") { zoomAt(0.8, S.size.w / 2, S.size.h / 2); return handled(); }
  if (key === "0") { fit(); return handled(); }
  if (key === "v") { $("reviewed").click(); return handled(); }
  if (key === "g") { $("group").focus(); $("group").select(); return handled(); }
  if (key === "h") { $("hand").focus(); $("hand").select(); return handled(); }
  if (key === "Tab") {
    const n = S.edit.boxes.length;
    if (n) S.sel = ((S.sel < 0 ? (e.shiftKey ? 0 : -1) : S.sel) + (e.shiftKey ? n - 1 : 1)) % n;
    S.typed = "";
    draw();
    return handled();
  }
  if (key === "Escape") { S.sel = -1; S.typed = ""; draw(); return handled(); }
  const arrow = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
  if (arrow) {
    const step = e.shiftKey ? 10 : 1;
    if (S.sel >= 0) nudge(arrow[0] * step, arrow[1] * step, e.altKey);
    else { S.view.ox -= arrow[0] * 40; S.view.oy -= arrow[1] * 40; draw(); }
    return handled();
  }
  if (S.sel < 0) return;
  const k = key.toLowerCase();
  if (key === "Delete" || key === "Backspace") { deleteBox(); return handled(); }
  if (k === "r") { toggleSideways(); return handled(); }
  if (k === "w") { toggleWin(); return handled(); }
  if (k === "n") { newBeside(); return handled(); }
  if (k === "b") { S.typed = ""; setTile("back"); return handled(); }
  if (/^[1-9]$/.test(k)) { S.typed = k; return handled(); }
  if ("mpszf".includes(k) && k.length === 1) {
    if (!S.typed) { setStatus(`type the number first, then ${k}: e.g. 5${k}`, true); return handled(); }
    const name = S.typed + k;
    S.typed = "";
    if (TILES.has(name)) setTile(name); else setStatus(`${name} is not a tile`, true);
    return handled();
  }
});

document.addEventListener("keyup", (e) => {
  if (e.key === " ") { S.space = false; canvas.classList.remove("panning"); if (!typingIn(e.target)) e.preventDefault(); }
});

// --- start ---------------------------------------------------------------------------------------------------------

window.addEventListener("resize", () => { resizeCanvas(); draw(); });
resizeCanvas();
renderAll();
if (S.token) {
  api("GET", "/v1/datasets").then((out) => afterLogin(out.datasets)).catch((err) => {
    if (err.status !== 401) showLogin(err.message);
  });
} else {
  showLogin("");
}
