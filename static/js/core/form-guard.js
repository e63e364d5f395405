// A classic script, run before the page shows: a form that its page's module sends itself
// (one without a method) must never fall back to the browser's own GET submit, which would
// put its fields (a password, too) in the address and the server's log when a player
// presses before the module has loaded. The module's own submit handler still runs.
document.addEventListener("submit", (event) => {
  if (event.target instanceof HTMLFormElement && !event.target.hasAttribute("method")) {
    event.preventDefault();
  }
}, true);
