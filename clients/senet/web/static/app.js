// Senet web client: draws the frames the app pushes (server-sent events), and sends
// the person's choices. No library, no build step. Board elements marked
// data-target choose actions; the labelled list always offers every legal action.
"use strict";

(function () {
  const body = document.body;
  const page = body.dataset.page;
  const matchId = body.dataset.match;
  const csrf = document.querySelector('meta[name="senet-csrf"]').content;
  const $ = (id) => document.getElementById(id);

  let actions = [];      // legal actions of the current frame: {n, l, t}
  let picked = [];       // board keys clicked so far
  let version = 0;       // version the actions were listed at
  let busy = false;
  let started = true;    // every open seat is claimed (a leave resigns, not reopens)
  let alone = false;     // every other player resigned: leaving keeps first place
  let refused = null;    // the notation the server last refused (its reason is shown)
  let stream = null;     // the page's EventSource
  // A move the server took whose frame has not come within FRAME_DUE_MS: the stream
  // is opened afresh (a new one starts with the whole match), so a page never waits
  // for good on a frame lost on the way.
  const FRAME_DUE_MS = window.senetFrameDueMs || 10000;  // (a test page sets it shorter)
  let frameDue = null;
  // What the page shows, as last drawn: a part drawn again unchanged keeps its
  // elements, so a click landing while a frame is drawn is not lost with them.
  const drawn = { board: null, seats: null, list: null };

  function candidates() {
    return actions.filter((a) => picked.every((key) => a.t.includes(key)));
  }

  function markBoard() {
    const live = new Set();
    candidates().forEach((a) => a.t.forEach((key) => live.add(key)));
    document.querySelectorAll("#board [data-target]").forEach((el) => {
      const key = el.dataset.target;
      const isLive = live.has(key) && !busy;
      el.classList.toggle("live", isLive);
      el.classList.toggle("picked", picked.includes(key));
      if (isLive) {
        el.setAttribute("tabindex", "0");
        el.setAttribute("role", "button");
      } else {
        el.removeAttribute("tabindex");
        el.removeAttribute("role");
      }
    });
  }

  function actionItem(a) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "action";
    button.dataset.notation = a.n;
    button.disabled = busy;
    const code = document.createElement("kbd");
    code.textContent = a.n;
    const label = document.createElement("span");
    label.textContent = a.l;
    button.append(code, " ", label);
    button.addEventListener("click", () => submit(a.n));
    item.append(button);
    return item;
  }

  function renderActions() {
    const list = $("actions");
    if (!list) return;
    const filter = ($("filter").value || "").trim().toLowerCase();
    const shown = candidates().filter(
      (a) => !filter || a.n.toLowerCase().startsWith(filter) || a.l.toLowerCase().includes(filter)
    );
    const listed = JSON.stringify([busy, shown.map((a) => [a.n, a.l])]);
    if (listed !== drawn.list) {
      drawn.list = listed;
      list.replaceChildren(...shown.map(actionItem));
    }
    const typed = ($("filter").value || "").trim();
    $("picked").textContent = picked.length
      ? `Picked ${picked.join(", ").replace(/[a-z]:/g, "")}: ${candidates().length} action(s) left (Esc clears).`
      : typed && !shown.length && actions.length && typed !== refused
        ? `No action matches “${typed}”. Press Enter to hear why from the server, Esc to clear.`
        : "";
    $("actions-panel").hidden = actions.length === 0;
    markBoard();
  }

  function showProblem(text) {
    const box = $("problem");
    box.textContent = text || "";
    box.hidden = !text;
  }

  // A fresh key for each action, so that a retried POST is applied once.
  // crypto.randomUUID exists only in secure contexts (HTTPS, localhost); a page
  // served over plain HTTP on a LAN has crypto.getRandomValues alone.
  function requestId() {
    if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  async function submit(notation) {
    if (busy) return;
    busy = true;
    body.dataset.busy = "1";
    renderActions();
    try {
      const response = await fetch(`/matches/${matchId}/act`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-csrf-token": csrf },
        body: JSON.stringify({ notation, version, request_id: requestId() }),
        credentials: "same-origin",
      });
      const answer = await response.json();
      if (!response.ok) {
        refused = notation; // the server said why: the hint to ask it goes
        showProblem(answer.error || `refused (${response.status})`);
        busy = false;
        body.dataset.busy = "";
        renderActions();
        return;
      }
      showProblem("");
      if (version < answer.version) {
        // The frame of the new position has not arrived yet (it may already have:
        // bots answer fast, and then its actions must stay).
        actions = [];
        picked = [];
        $("filter").value = "";
        expectFrame(answer.version);
      }
    } catch (error) {
      showProblem(String(error));
    }
    busy = false;
    body.dataset.busy = "";
    renderActions();
  }

  function pick(key) {
    if (busy || !actions.length) return;
    picked = picked.includes(key) ? picked.filter((k) => k !== key) : picked.concat([key]);
    let left = candidates();
    if (!left.length) {
      picked = [key];
      left = candidates();
      if (!left.length) picked = [];
    }
    if (left.length === 1) {
      submit(left[0].n);
      return;
    }
    renderActions();
  }

  // One log line per action; an action like an earlier one (a bot's hidden offers,
  // card by card) replaces it and counts, when only other seats' actions of the
  // same word came between them (traders offer at once): frames.py's fold, live.
  function foldsInto(log, entry) {
    for (let item = log.lastElementChild; item; item = item.previousElementSibling) {
      if (item.dataset.key === entry.key) return item;
      if (!entry.word || item.dataset.seat === String(entry.seat)) return null;
      if (item.dataset.word !== entry.word) return null;
    }
    return null;
  }

  function appendEntry(log, entry) {
    const like = entry.key ? foldsInto(log, entry) : null;
    if (like) {
      const count = Number(like.dataset.count || "1") + 1;
      like.dataset.count = String(count);
      like.textContent = `${entry.text} (×${count})`;
      return;
    }
    const item = document.createElement("li");
    item.textContent = entry.text;
    if (entry.key) item.dataset.key = entry.key;
    if (entry.seat !== undefined) item.dataset.seat = String(entry.seat);
    if (entry.word) item.dataset.word = entry.word;
    log.append(item);
  }

  function drawRecent(lines) {
    const box = $("recent");
    if (!box) return;
    box.replaceChildren();
    (lines || []).forEach((line) => {
      const item = document.createElement("li");
      item.textContent = line;
      box.append(item);
    });
    box.hidden = !(lines && lines.length);
  }

  // Zoomable boards (a map drawn with data-zoom-key): 1 is the SVG's natural size,
  // where its text is meant to be read; the box scrolls to pan. "fit" fits the width.
  const zooms = {};
  const ZOOM_STEPS = [0.6, 0.8, 1, 1.25, 1.5, 2];
  function applyZooms() {
    document.querySelectorAll("#board [data-zoom-key]").forEach((box) => {
      const key = box.dataset.zoomKey;
      if (!(key in zooms)) zooms[key] = 1;
      const svgEl = box.querySelector("svg");
      if (!svgEl) return;
      const zoom = zooms[key];
      svgEl.style.width = zoom === null ? "100%" : `${Number(box.dataset.natural) * zoom}px`;
      svgEl.style.maxWidth = zoom === null ? "100%" : "none";
      box.dataset.zoom = zoom === null ? "fit" : String(zoom);
    });
  }
  function zoomBy(button) {
    const box = button.closest(".zoom-bar").nextElementSibling;
    if (!box || !box.dataset.zoomKey) return;
    const key = box.dataset.zoomKey;
    const now = zooms[key] === null ? 0.8 : (zooms[key] || 1);
    const at = ZOOM_STEPS.indexOf(now);
    const how = button.dataset.zoom;
    if (how === "fit") zooms[key] = null;
    else if (how === "in") zooms[key] = ZOOM_STEPS[Math.min(ZOOM_STEPS.length - 1, at + 1)];
    else zooms[key] = ZOOM_STEPS[Math.max(0, at - 1)];
    applyZooms();
  }

  // The tab's own title, and a mark before it while the player must act, so that
  // a player in another tab sees their turn come.
  const baseTitle = document.title;
  function drawFrame(frame) {
    body.dataset.drawn = "true";
    $("headline").textContent = frame.headline;
    const yourTurn = page === "play" && (frame.actions || []).length > 0;
    document.title = yourTurn ? `▶ Your turn · ${baseTitle}` : baseTitle;
    if (page !== "replay") {
      // A seat anyone may still join: the link that opens the lobby's join form
      // with this match (the only way in to an unlisted match).
      const share = `${window.location.origin}/?join=${matchId}#join-form`;
      $("share-link").href = share;
      $("share-link").textContent = share;
      $("share").hidden = !frame.joinable;
    }
    drawRecent(frame.recent);
    if (frame.board !== drawn.board) {
      drawn.board = frame.board;
      $("board").innerHTML = frame.board;
      applyZooms();
    }
    if (frame.seats !== drawn.seats) {
      drawn.seats = frame.seats;
      $("seats").innerHTML = frame.seats;
    }
    const final = $("final");
    final.textContent = frame.final || "";
    final.hidden = !frame.final;
    body.dataset.status = frame.status;
    body.dataset.version = frame.version;
    const log = $("log");
    if (page === "replay") log.replaceChildren();
    const entries = frame.entries || (frame.log || []).map((line) => ({ text: line, key: "" }));
    entries.forEach((entry) => appendEntry(log, entry));
    while (log.children.length > 200) log.firstChild.remove();
    log.scrollTop = log.scrollHeight;
    if (page === "play") {
      $("leave-panel").hidden = frame.status !== "active";
      // Before the start a leave reopens the seat; after it, the seat resigns.
      started = frame.started !== false;
      if (frame.alone && !alone) {
        // Every other player resigned: said where the player looks, once.
        $("notice").textContent = frame.alone;
        $("notice").hidden = false;
      }
      alone = Boolean(frame.alone);
      $("leave").textContent = started && !alone ? "Resign and leave" : "Leave";
      // Every other player resigned: leaving keeps this player's first place.
      $("leave-note").textContent = alone
        ? frame.alone
        : started
          ? "The server plays your seat out; you are ranked last."
          : "Your seat opens again for someone else.";
      if (frame.status === "finished" && frame.rated && frame.viewer !== null) showRating();
      if (frame.status === "finished") offerRematch(frame.rated);
      else if (!started && frame.rematch_of) watchForDecline(frame.rematch_of);
      else if (started && rematchPoll !== null) {
        clearInterval(rematchPoll); // the rematch started: nobody can decline it now
        rematchPoll = null;
      }
      actions = frame.actions || [];
      if (Number(frame.version) !== version) {
        // A new position: what was typed or clicked for the old one no longer applies.
        $("filter").value = "";
        version = Number(frame.version);
        picked = [];
        busy = false;
      } else if (!candidates().length) {
        // The same position drawn again (a frame comes for every batch of updates,
        // each drawn from the latest state): the person's picks and a move on its
        // way still stand, unless the picks match no action now.
        picked = [];
      }
      renderActions();
    }
  }

  function expectFrame(wanted) {
    clearTimeout(frameDue);
    frameDue = setTimeout(() => {
      if (version >= wanted || body.dataset.ended) return;
      console.warn(`no frame of version ${wanted} after ${FRAME_DUE_MS} ms: reconnecting`);
      stream.close();
      live();
    }, FRAME_DUE_MS);
  }

  function live() {
    stream = new EventSource(`/matches/${matchId}/${page}/events`);
    // Every connection starts with the match's whole log: a reconnect must not repeat it.
    stream.addEventListener("open", () => $("log").replaceChildren());
    stream.addEventListener("frame", (event) => drawFrame(JSON.parse(event.data)));
    stream.addEventListener("problem", (event) => {
      const message = JSON.parse(event.data).message;
      showProblem(message);
      if (!body.dataset.drawn) failed(message);
    });
    stream.addEventListener("end", () => {
      stream.close();
      body.dataset.ended = "true";
      if (!body.dataset.drawn) failed("");
    });
  }

  // Nothing to draw (an unknown match, a server that refuses): stop waiting, say so.
  function failed(message) {
    body.dataset.failed = "true";
    const headline = $("headline");
    headline.textContent = `Nothing to show${message ? "" : " for this match"}. `;
    const back = document.createElement("a");
    back.href = "/";
    back.textContent = "Back to the lobby";
    headline.append(back);
  }

  async function replay() {
    const slider = $("step");
    const info = await (await fetch(`/matches/${matchId}/replay/info`)).json();
    const verify = $("verify");
    if (info.error) {
      verify.textContent = info.error;
      verify.className = "verify bad";
      return;
    }
    verify.replaceChildren();
    const head = document.createElement("p");
    head.textContent = info.verified ? "✔ Seed commitment verified" : "✘ Verification failed";
    verify.append(head);
    const list = document.createElement("ul");
    info.checks.forEach((check) => {
      const item = document.createElement("li");
      item.textContent = `${check.ok ? "✔" : "✘"} ${check.what}`;
      list.append(item);
    });
    verify.append(list);
    verify.className = info.verified ? "verify ok" : "verify bad";
    slider.max = String(info.steps);
    let wanted = 0;
    async function show(step) {
      wanted = step;
      slider.value = String(step);
      $("step-out").textContent = `${step} / ${info.steps}`;
      const frame = await (await fetch(`/matches/${matchId}/replay/frames/${step}`)).json();
      if (frame.step === wanted) {
        drawFrame(frame);
        body.dataset.step = String(frame.step);
      }
    }
    slider.addEventListener("input", () => show(Number(slider.value)));
    $("first").addEventListener("click", () => show(0));
    $("prev").addEventListener("click", () => show(Math.max(0, Number(slider.value) - 1)));
    $("next").addEventListener("click", () => show(Math.min(info.steps, Number(slider.value) + 1)));
    $("last").addEventListener("click", () => show(info.steps));
    show(0);
  }

  document.addEventListener("click", (event) => {
    const zoomButton = event.target.closest && event.target.closest("#board [data-zoom]");
    if (zoomButton && zoomButton.tagName === "BUTTON") {
      zoomBy(zoomButton);
      return;
    }
    const el = event.target.closest && event.target.closest("#board [data-target].live");
    if (el) pick(el.dataset.target);
  });
  document.addEventListener("keydown", (event) => {
    const el = event.target.closest && event.target.closest("#board [data-target].live");
    if (el && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      pick(el.dataset.target);
    } else if (event.key === "Escape" && page === "play") {
      picked = [];
      $("filter").value = "";
      renderActions();
    } else if (event.key === "/" && page === "play") {
      // "/" jumps to the notation box; typed into it while it is empty (the focus
      // stays there from the last move) it is the same jump, since no notation
      // starts with "/" ("mus col/exp" has one inside).
      if (event.target !== $("filter") || $("filter").value === "") {
        event.preventDefault();
        $("filter").focus();
      }
    }
  });

  async function leave() {
    const question = alone
      ? "Leave? You keep first place; the server plays the match out."
      : started
        ? "Resign? The server plays your seat out and ranks you last."
        : declined
        ? "Leave? The rematch will not start."
        : "Leave? Your seat opens again for someone else.";
    if (!window.confirm(question)) return;
    const response = await fetch(`/matches/${matchId}/leave`, {
      method: "POST",
      headers: { "x-csrf-token": csrf },
      credentials: "same-origin",
    });
    const answer = await response.json();
    if (!response.ok) {
      showProblem(answer.error || `refused (${response.status})`);
      return;
    }
    // What the leave did, for the spectator's page this one becomes.
    if (answer.note) sessionStorage.setItem(`senet-left-${matchId}`, answer.note);
    window.location.assign(answer.watch);
  }

  // Once the match is finished: the Rematch and No thanks buttons, and every few
  // seconds a look for a rematch another player asked for (who is in it so far) or
  // declined.
  let rematchPoll = null;
  // Once someone declined, the page says so for good: a look still on its way
  // when the decline came back must not put the offer back.
  let declined = false;
  // Links after a note's words: [address, words] pairs.
  function appendLinks(note, links) {
    for (const [href, words] of links) {
      const link = document.createElement("a");
      link.href = href;
      link.textContent = words;
      note.append(link, " ");
    }
  }
  // A rated match's result settles into ratings a moment after its end: a few
  // looks for it, then the change, the player's page and the way to another match.
  let ratingAsked = false;
  async function showRating() {
    if (ratingAsked) return;
    ratingAsked = true;
    for (let look = 0; look < 10; look++) {
      const response = await fetch(`/matches/${matchId}/rating`, { credentials: "same-origin" });
      const answer = response.ok ? await response.json() : { settled: false };
      if (answer.settled) {
        const sign = answer.delta >= 0 ? "+" : "−";
        const note = $("rating");
        note.textContent = `Your rating: ${answer.rating.toFixed(2)} (${sign}${Math.abs(answer.delta).toFixed(2)} for place ${answer.place} of ${answer.seats}). `;
        appendLinks(note, [["/player", "Your page"], ["/play-now", "Play now again"]]);
        note.hidden = false;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 1500));
    }
  }
  function offerRematch(rated) {
    $("rematch-panel").hidden = false;
    if (rematchPoll === null) {
      // Ratings come from the queue's pairings only: said after the page's own
      // words, once, before anyone asks.
      if (rated) $("rematch-note").textContent += " A rematch is not rated: Play now for a rated match.";
      lookForRematch();
      rematchPoll = setInterval(lookForRematch, 3000);
    }
  }
  async function lookForRematch() {
    const response = await fetch(`/matches/${matchId}/rematch`, { credentials: "same-origin" });
    if (declined || !response.ok) return;
    const answer = await response.json();
    if (declined) return;
    if (answer.declined) {
      showDeclined(answer.declined);
      return;
    }
    if (!answer.match) return;
    if (answer.mine) {
      // This player asked already (and came back here): the way back to it.
      $("rematch-note").textContent = "You are in the rematch; it starts once every player takes their seat.";
      $("rematch").textContent = "Back to the rematch";
      return;
    }
    const who = answer.players.length ? answer.players.join(", ") : "A player";
    $("rematch-note").textContent = `${who} asked for a rematch.`;
    $("rematch").textContent = "Play the rematch";
  }
  // Someone declined: no rematch will start, so the buttons go and the note says who.
  function showDeclined(note) {
    declined = true;
    clearInterval(rematchPoll);
    $("rematch-panel").hidden = false;
    $("rematch").hidden = true;
    $("decline-rematch").hidden = true;
    $("rematch-note").textContent = `${note} It will not start.`;
  }
  // While a rematch waits for its players: a look every few seconds at the match it
  // follows, for a player who declined it.
  function watchForDecline(finishedId) {
    if (rematchPoll !== null) return;
    const look = async () => {
      const response = await fetch(`/matches/${finishedId}/rematch`, {
        credentials: "same-origin",
      });
      if (!response.ok) return;
      const answer = await response.json();
      if (!answer.declined) return;
      showDeclined(answer.declined);
      $("headline").textContent = `${answer.declined} The rematch will not start.`;
      // The headline says who declined: the panel offers the ways on instead.
      const note = $("rematch-note");
      note.textContent = "";
      appendLinks(note, [[`/matches/${finishedId}/play`, "Back to the result"], ["/play-now", "Play now"], ["/", "Lobby"]]);
      // Nobody will take this seat: leaving only closes the page's part in it.
      $("leave").textContent = "Leave";
      $("leave-note").textContent = "The rematch will not start.";
    };
    rematchPoll = setInterval(look, 3000);
    look();
  }
  async function declineRematch() {
    $("decline-rematch").disabled = true;
    const response = await fetch(`/matches/${matchId}/rematch/decline`, {
      method: "POST",
      headers: { "x-csrf-token": csrf },
      credentials: "same-origin",
    });
    const answer = await response.json();
    $("decline-rematch").disabled = false;
    if (!response.ok) showProblem(answer.error || `refused (${response.status})`);
    else showDeclined(answer.declined);
  }
  async function rematch() {
    $("rematch").disabled = true;
    const response = await fetch(`/matches/${matchId}/rematch`, {
      method: "POST",
      headers: { "x-csrf-token": csrf },
      credentials: "same-origin",
    });
    const answer = await response.json();
    $("rematch").disabled = false;
    if (!response.ok) showProblem(answer.error || `refused (${response.status})`);
    else window.location.assign(answer.play);
  }

  // The page a player lands on after leaving says what became of their seat.
  const leftNote = sessionStorage.getItem(`senet-left-${matchId}`);
  if (leftNote) {
    sessionStorage.removeItem(`senet-left-${matchId}`);
    $("notice").textContent = leftNote;
    $("notice").hidden = false;
  }

  if (page === "play") {
    $("rematch").addEventListener("click", rematch);
    $("decline-rematch").addEventListener("click", declineRematch);
    $("leave").addEventListener("click", leave);
    $("filter").addEventListener("input", renderActions);
    $("filter").addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      const text = $("filter").value.trim();
      const exact = candidates().find((a) => a.n === text);
      const shown = $("actions").querySelectorAll("button.action");
      if (exact) submit(exact.n);
      else if (shown.length === 1) submit(shown[0].dataset.notation);
      // Nothing matches: the server says why (its reason, in words), so a mistyped
      // notation never just does nothing.
      else if (text && !shown.length) submit(text);
    });
  }
  // Turn clocks: the seat deciding counts down from its deadline (server time, Unix
  // ms), in the text client's words: m:ss, tenths under ten seconds.
  function clockText(ms) {
    ms = Math.max(0, ms);
    if (ms < 10000) return (ms / 1000).toFixed(1) + "s";
    const seconds = Math.floor(ms / 1000);
    return Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
  }
  function tickClocks() {
    for (const cell of document.querySelectorAll("[data-deadline]")) {
      cell.textContent = clockText(Number(cell.dataset.deadline) - Date.now()) + " left";
    }
  }

  // The lobby's create forms: what a player chose is kept until the server accepts
  // it, so a refused match (say, the team game with two seats) comes back with the
  // form as they left it, beside the reason, not reset to the defaults.
  function keepCreateForms() {
    const key = "senet-create-form";
    // What the player fills in: hidden fields (the game, the token, an option's
    // "off") are the page's own.
    const chosen = (form) => [...form.elements].filter((e) => e.name && e.type !== "hidden");
    const saved = sessionStorage.getItem(key);
    sessionStorage.removeItem(key);
    const refused = document.querySelector("p.problem[role=alert]");
    if (saved && refused) {
      const { game, fields } = JSON.parse(saved);
      const gameInput = document.querySelector(`form.create input[name=game][value="${game}"]`);
      const target = gameInput ? gameInput.form : null;
      if (target) {
        for (const element of chosen(target)) {
          if (!(element.name in fields)) continue;
          if (element.type === "checkbox") element.checked = fields[element.name] === true;
          else element.value = fields[element.name];
        }
        target.scrollIntoView({ block: "start" });
      }
    }
    for (const form of document.querySelectorAll("form.create")) {
      form.addEventListener("submit", () => {
        const fields = {};
        for (const element of chosen(form)) {
          fields[element.name] = element.type === "checkbox" ? element.checked : element.value;
        }
        sessionStorage.setItem(key, JSON.stringify({ game: form.elements.game.value, fields }));
      });
    }
  }

  if (page === "play" || page === "watch") {
    live();
    setInterval(tickClocks, 250);
  }
  if (page === "replay") replay();
  if (page === "lobby") keepCreateForms();
})();
