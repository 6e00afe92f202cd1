// Shelfmark: a little vanilla JavaScript that only makes pages nicer; everything works without it.
// It holds no words of its own: what it shows or says comes from the page, in the page's language.
"use strict";

// A private page brought back from the browser's back-forward cache is asked again, so that after
// logging out, Back shows the login page rather than the member's data.
window.addEventListener("pageshow", (event) => {
  if (event.persisted && document.body.hasAttribute("data-private")) window.location.reload();
});

document.addEventListener("DOMContentLoaded", () => {
  // Focus the error summary of a refused form, so keyboard and screen-reader users hear it first.
  const summary = document.getElementById("error-summary");
  if (summary) summary.focus();

  // Selects and checkboxes that apply at once (the form still has its button without JavaScript).
  document.querySelectorAll("[data-autosubmit]").forEach((field) => {
    field.addEventListener("change", () => field.form && field.form.submit());
  });

  // Live password rules on the signup form (the server checks them again); their spoken state is
  // worded by the page, in its language (data-done, data-not-yet).
  const password = document.querySelector("#signup #password");
  const rules = document.getElementById("password-rules");
  if (password && rules) {
    const tests = {
      length: (v) => [...v].length >= 8,
      uppercase: (v) => /\p{Lu}/u.test(v),
      special: (v) => /[^\p{L}\p{N}]/u.test(v),
    };
    const check = () => {
      rules.querySelectorAll("li[data-rule]").forEach((li) => {
        const met = tests[li.dataset.rule](password.value);
        li.classList.toggle("met", met);
        const said = met ? rules.dataset.done : rules.dataset.notYet;
        li.setAttribute("aria-label", (said || "%1$@").replace("%1$@", li.textContent.replace(" ✓", "")));
      });
    };
    password.addEventListener("input", check);
    check();
  }

  // Confirm dialogs before destructive forms.
  document.querySelectorAll("form[data-confirm]").forEach((form) => {
    form.addEventListener("submit", (event) => {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  });

  // "Select all" for a group of checkboxes.
  document.querySelectorAll("[data-select-all]").forEach((box) => {
    box.addEventListener("change", () => {
      box.form.querySelectorAll(`input[type=checkbox][name="${box.dataset.selectAll}"]`).forEach((other) => { other.checked = box.checked; });
    });
  });

  // Forms with unsaved changes ask before the page is left.
  document.querySelectorAll("form[data-unsaved]").forEach((form) => {
    let dirty = false;
    form.addEventListener("input", () => { dirty = true; });
    form.addEventListener("submit", () => { dirty = false; });
    window.addEventListener("beforeunload", (event) => { if (dirty) { event.preventDefault(); event.returnValue = ""; } });
  });

  // Share: the Web Share API where the browser has it, else copy the link.
  const share = document.getElementById("share");
  const copy = document.getElementById("copy-link");
  const said = document.getElementById("share-result");
  if (share && navigator.share) {
    share.hidden = false;
    share.addEventListener("click", () => navigator.share({ title: share.dataset.title, url: share.dataset.url }).catch(() => {}));
  }
  if (copy && navigator.clipboard) {
    copy.hidden = false;
    copy.addEventListener("click", () => {
      navigator.clipboard.writeText(copy.dataset.url).then(
        () => { if (said) said.textContent = said.dataset.copied; },
        () => { if (said) said.textContent = said.dataset.notCopied; });
    });
  }

  // "Load more": the next page of results appended in place, and again when scrolled to the end.
  const more = document.querySelector("[data-load-more]");
  if (more) {
    const list = document.querySelector(more.dataset.loadMore);
    const label = more.textContent;
    let loading = false;
    const load = async (event) => {
      if (event) event.preventDefault();
      if (loading || !more.getAttribute("href")) return;
      loading = true;
      more.textContent = more.dataset.loading || label;
      try {
        const answer = await fetch(more.href, { credentials: "same-origin" });
        const page = new DOMParser().parseFromString(await answer.text(), "text/html");
        const first = page.querySelector(more.dataset.loadMore + " > li");
        page.querySelectorAll(more.dataset.loadMore + " > li").forEach((item) => list.appendChild(document.importNode(item, true)));
        const next = page.querySelector("[data-load-more]");
        if (next) { more.href = next.getAttribute("href"); more.textContent = label; } else { more.parentElement.remove(); }
        const count = page.getElementById("result-count");
        if (count && document.getElementById("result-count")) document.getElementById("result-count").textContent = count.textContent.replace(/\d[\d\u00a0\u202f,.]*–/, "1–");
        if (first) { const link = first.querySelector("button, a"); if (link) link.focus({ preventScroll: true }); }
      } catch (error) {
        more.textContent = label;
      }
      loading = false;
    };
    more.addEventListener("click", load);
    if ("IntersectionObserver" in window) {
      new IntersectionObserver((entries) => { if (entries.some((e) => e.isIntersecting)) load(); }).observe(more);
    }
  }
});
