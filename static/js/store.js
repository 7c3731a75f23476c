// One store of the page's state: what the server said (the view, the players, the game's
// status) and what the player opened (a dialog, a folded result). Every change goes
// through set(); the page redraws from the whole state after each.
export function createStore(initial) {
  let state = initial;
  const listeners = new Set();
  return {
    get: () => state,
    set(change) {
      const patch = typeof change === "function" ? change(state) : change;
      state = { ...state, ...patch };
      for (const listener of listeners) listener(state);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
