// The notification settings page: subscribe this browser to Web Push and send its subscription to the server.
// The button shows only where push works (a service worker and the Push API); the server's VAPID public key
// and the subscription URL come from the page (#push-devices).
"use strict";
(function () {
  const panel = document.getElementById("push-devices");
  const button = document.getElementById("push-subscribe");
  const status = document.getElementById("push-status");
  if (!panel || !button || !("serviceWorker" in navigator) || !("PushManager" in window)) return;
  button.hidden = false;

  function key(base64url) {
    const text = atob((base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/"));
    return Uint8Array.from(text, (c) => c.charCodeAt(0));
  }

  function csrfToken() {
    const input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  button.addEventListener("click", async function () {
    button.disabled = true;
    try {
      if (await Notification.requestPermission() !== "granted") throw new Error(button.dataset.refused);
      const registration = await navigator.serviceWorker.ready;
      const subscription = await registration.pushManager.getSubscription() ||
        await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key(panel.dataset.publicKey) });
      const response = await fetch(panel.dataset.url, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
        body: JSON.stringify(subscription.toJSON()),
      });
      if (!response.ok) throw new Error(String(response.status));
      window.location.reload();
    } catch (error) {
      status.textContent = String(error.message || error);
      button.disabled = false;
    }
  });
})();
