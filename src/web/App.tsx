export function App() {
  return <h1>VVX</h1>;
}
