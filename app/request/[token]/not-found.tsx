export default function RequestLinkNotFound() {
  return (
    <main className="mx-auto max-w-2xl p-6">
      <section className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-slate-200">
        <h1 className="text-xl font-bold">Link not found</h1>
        <p className="mt-2 text-slate-700">
          This request link does not exist. Check that you copied all of it, or ask your agency for a new one.
        </p>
      </section>
    </main>
  );
}
