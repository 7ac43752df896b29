// The organiser's page: each action is a JSON body, sent with the session's anti-forgery token.
const CSRF = document.querySelector('meta[name="csrf-token"]').content;
document.getElementById("act").addEventListener("submit", async e => {
  e.preventDefault();
  const r = await fetch("/api/organiser/" + document.getElementById("action").value,
                        {method: "POST", body: document.getElementById("body").value, credentials: "same-origin",
                         headers: {"Content-Type": "application/json", "X-CSRF-Token": CSRF}});
  document.getElementById("answer").textContent = r.status + " " + await r.text();
});
