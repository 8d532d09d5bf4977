// Play now: queue a ticket, show the wait live, cancel by closing the stream.
// The identity and the seat token stay in httpOnly cookies; this script only
// ever sees the ticket id and the match id.
"use strict";

(function () {
  const csrf = document.querySelector('meta[name="senet-csrf"]').content;
  const $ = (id) => document.getElementById(id);
  const form = $("queue-form");
  const status = $("queue-status");
  const cancel = $("queue-cancel");
  const game = $("queue-game");
  let stream = null;

  // Only the chosen game's options show.
  function showOptions() {
    for (const set of document.querySelectorAll(".queue-options")) {
      set.hidden = set.dataset.game !== game.value;
    }
  }

  function seatBounds() {
    const chosen = game.selectedOptions[0];
    if (!chosen) return;
    $("queue-min").value = chosen.dataset.min;
    $("queue-max").value = chosen.dataset.min;
    $("queue-min").min = $("queue-max").min = chosen.dataset.min;
    $("queue-min").max = $("queue-max").max = chosen.dataset.max;
  }

  function say(text) {
    status.textContent = text;
  }

  function stop(text) {
    if (stream) stream.close();
    stream = null;
    cancel.hidden = true;
    $("queue-go").disabled = false;
    say(text);
  }

  async function post(path, body) {
    const response = await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json", "x-csrf-token": csrf },
      body: JSON.stringify(body),
    });
    const data = await response.json();
    if (!response.ok) throw new Error(data.error || response.statusText);
    return data;
  }

  async function claim(ticket) {
    say("Matched! Taking your seat…");
    try {
      const done = await post("/play-now/claim", { ticket });
      window.location.assign(done.play);
    } catch (error) {
      stop(error.message);
    }
  }

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const fewest = Number($("queue-min").value || 0);
    const most = Number($("queue-max").value || 0);
    if (fewest && most && fewest > most) {
      say("Fewest players cannot be more than most players.");
      return;
    }
    $("queue-go").disabled = true;
    say("Joining the queue…");
    try {
      await post("/play-now/identity", { name: $("queue-name").value });
    } catch (error) {
      stop(error.message);
      return;
    }
    const query = new URLSearchParams({
      game: game.value,
      min: $("queue-min").value,
      max: $("queue-max").value,
      rated: $("queue-rated").checked ? "1" : "0",
      bots: $("queue-bots").value,
    });
    // The chosen game's options, as the lobby's form sends them.
    const options = document.querySelector(`.queue-options[data-game="${game.value}"]`);
    if (options) {
      for (const field of options.querySelectorAll("input, select")) {
        if (field.type === "hidden") continue;
        query.set(field.name, field.type === "checkbox" ? String(field.checked) : field.value);
      }
    }
    stream = new EventSource(`/play-now/events?${query}`);
    cancel.hidden = false;
    stream.addEventListener("progress", (event) => {
      const p = JSON.parse(event.data);
      if (p.stage === "matched") {
        stream.close();
        stream = null;
        cancel.hidden = true;
        claim(p.ticket);
        return;
      }
      const found = p.stage === "players_found" ? `, ${p.found} players found` : "";
      // What the wait leads to: bots at the chosen time, or people only.
      const fill = Number($("queue-bots").value);
      const then = fill < 0
        ? " Only people: the match starts when enough have queued."
        : p.waited < fill
          ? ` Bots take the empty seats at ${fill} s.`
          : " Bots are taking the empty seats.";
      say(`Waiting for players: ${Math.round(p.waited)} s${found}.${then}`);
    });
    stream.addEventListener("problem", (event) => stop(JSON.parse(event.data).message));
    stream.addEventListener("end", () => {
      if (stream) stop("The queue closed.");
    });
  });

  cancel.addEventListener("click", () => stop("Cancelled: you left the queue."));
  game.addEventListener("change", seatBounds);
  game.addEventListener("change", showOptions);
  seatBounds();
  showOptions();
})();
