// The copy button beside a new key: the token is in a read-only field (selectable without JavaScript too).
document.querySelectorAll("button[data-copy]").forEach((button) => {
  button.addEventListener("click", async () => {
    const field = document.getElementById(button.dataset.copy);
    field.select();
    try {
      await navigator.clipboard.writeText(field.value);
    } catch {
      document.execCommand("copy");
    }
    button.textContent = button.dataset.copied;
  });
});
