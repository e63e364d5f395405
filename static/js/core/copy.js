// Copy a read-only field's text (a link to share) to the clipboard; where the page may not
// use the clipboard API (no permission, plain http), the field is selected and copied.
export async function copyField(input) {
  try {
    await navigator.clipboard.writeText(input.value);
  } catch {
    input.select();
    document.execCommand("copy");
  }
}
